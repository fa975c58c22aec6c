//! The JNI entry points of `io.smoothscale.kafka.NativeBridge`. Each one
//! converts its arguments, calls the safe Rust API of this crate, and turns
//! a [`Failure`] (or a panic) into a pending exception, returning `null` /
//! `0` / `−1`; Java then throws it: bad input as
//! `SmoothscaleInputException`, a bug as `SmoothscaleInvariantException`
//! (both `SmoothscaleException`s), with the failure's one-line message. Each
//! export is `#[no_mangle]` and so carries its own `#[allow(unsafe_code)]`;
//! nothing else in the crate is unsafe.

use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::objects::{JByteArray, JClass, JLongArray, JObject, JObjectArray, JString};
use jni::sys::{jint, jlong};
use jni::JNIEnv;

use crate::Failure;

/// What bad input becomes on the Java side.
pub(crate) const INPUT_EXCEPTION: &str = "io/smoothscale/kafka/SmoothscaleInputException";
/// What a bug becomes on the Java side.
pub(crate) const INVARIANT_EXCEPTION: &str = "io/smoothscale/kafka/SmoothscaleInvariantException";

/// The Java exception class `failure` is thrown as.
pub(crate) fn exception_class(failure: &Failure) -> &'static str {
    if failure.is_bad_input() {
        INPUT_EXCEPTION
    } else {
        INVARIANT_EXCEPTION
    }
}

/// Runs `body`; on a failure or a panic, leaves its exception pending
/// ([`exception_class`], with the message) unless Java already has one
/// pending (such as an `OutOfMemoryError`), and returns `fallback`.
fn guarded<'l, T>(
    env: &mut JNIEnv<'l>,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv<'l>) -> Result<T, Failure>,
) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)))
        .unwrap_or_else(|_| Err(Failure::bug("smoothscale panicked in the JNI glue")));
    match outcome {
        Ok(value) => value,
        Err(failure) => {
            if !env.exception_check().unwrap_or(true) {
                // If even throwing fails, the JVM has an error pending already.
                let _ = env.throw_new(exception_class(&failure), failure.message());
            }
            fallback
        }
    }
}

fn string(env: &mut JNIEnv<'_>, s: &JString<'_>, what: &str) -> Result<String, Failure> {
    if s.is_null() {
        return Err(Failure::input(format!("{what} must not be null")));
    }
    env.get_string(s)
        .map(Into::into)
        .map_err(|e| Failure::bug(format!("{what}: {e}")))
}

fn bytes(env: &mut JNIEnv<'_>, array: &JByteArray<'_>, what: &str) -> Result<Vec<u8>, Failure> {
    if array.is_null() {
        return Err(Failure::input(format!("{what} must not be null")));
    }
    env.convert_byte_array(array)
        .map_err(|e| Failure::bug(format!("{what}: {e}")))
}

fn java_bytes<'l>(env: &mut JNIEnv<'l>, bytes: &[u8]) -> Result<JByteArray<'l>, Failure> {
    env.byte_array_from_slice(bytes)
        .map_err(|e| Failure::bug(format!("cannot return {} bytes to Java: {e}", bytes.len())))
}

/// A rate for Java: records per second, `−1` for none, `Long.MAX_VALUE` past
/// it.
fn java_rate(rate: Option<u64>) -> jlong {
    rate.map_or(-1, |r| jlong::try_from(r).unwrap_or(jlong::MAX))
}

fn java_longs<'l>(env: &mut JNIEnv<'l>, values: &[jlong]) -> Result<JLongArray<'l>, Failure> {
    let len = jint::try_from(values.len()).map_err(Failure::bug)?;
    let array = env.new_long_array(len).map_err(Failure::bug)?;
    env.set_long_array_region(&array, 0, values)
        .map_err(Failure::bug)?;
    Ok(array)
}

/// `static native String[] strategies()`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_strategies<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> JObjectArray<'l> {
    guarded(&mut env, JObjectArray::default(), |env| {
        let names = crate::strategies();
        let len = jint::try_from(names.len()).map_err(Failure::bug)?;
        let array = env
            .new_object_array(len, "java/lang/String", JObject::null())
            .map_err(Failure::bug)?;
        for (i, name) in (0..len).zip(names) {
            let s = env.new_string(name).map_err(Failure::bug)?;
            env.set_object_array_element(&array, i, s)
                .map_err(Failure::bug)?;
        }
        Ok(array)
    })
}

/// `static native byte[] assign(String strategy, byte[] state)`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_assign<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    strategy: JString<'l>,
    state: JByteArray<'l>,
) -> JByteArray<'l> {
    guarded(&mut env, JByteArray::default(), |env| {
        let strategy = string(env, &strategy, "strategy")?;
        let state = bytes(env, &state, "state")?;
        let plan = crate::assign(&strategy, &state)?;
        java_bytes(env, &plan)
    })
}

/// `static native String checkHandout(byte[] handout)`: `null` when the
/// assignment keeps every rule, else the violations in one line.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_checkHandout<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handout: JByteArray<'l>,
) -> JString<'l> {
    guarded(&mut env, JString::default(), |env| {
        let handout = bytes(env, &handout, "handout")?;
        match crate::check_handout(&handout)? {
            None => Ok(JString::default()),
            Some(violations) => env.new_string(violations).map_err(Failure::bug),
        }
    })
}

/// `static native long observeRestoreRate(byte[] observation)`: the
/// observed restore rate, records per second, or −1 when the observation
/// gives none.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_observeRestoreRate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    observation: JByteArray<'l>,
) -> jlong {
    guarded(&mut env, -1, |env| {
        let observation = bytes(env, &observation, "observation")?;
        Ok(java_rate(crate::observe_restore_rate(&observation)?))
    })
}

/// `static native long[] inputRates(byte[] state)`: the input rate the core
/// reads for each task of the state message, in its task order, −1 where
/// unknown.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_inputRates<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    state: JByteArray<'l>,
) -> JLongArray<'l> {
    guarded(&mut env, JLongArray::default(), |env| {
        let state = bytes(env, &state, "state")?;
        let rates: Vec<jlong> = crate::input_rates(&state)?
            .into_iter()
            .map(java_rate)
            .collect();
        java_longs(env, &rates)
    })
}

/// `static native long inputRateWindowMs()`: the shortest time between two
/// samples of the input offsets that gives an input rate, in milliseconds.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_inputRateWindowMs<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jlong {
    guarded(&mut env, -1, |_| {
        jlong::try_from(crate::input_rate_window_ms()).map_err(Failure::bug)
    })
}

/// `static native byte[] generatePreset(String preset, long seed)`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_generatePreset<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    preset: JString<'l>,
    seed: jlong,
) -> JByteArray<'l> {
    guarded(&mut env, JByteArray::default(), |env| {
        let preset = string(env, &preset, "preset")?;
        let seed = u64::try_from(seed)
            .map_err(|_| Failure::input(format!("seed must be at least 0, got {seed}")))?;
        let state = crate::generate_preset(&preset, seed)?;
        java_bytes(env, &state)
    })
}

/// `static native long timeNativeAssign(String strategy, byte[] state, int iterations)`:
/// nanoseconds for `iterations` runs of the strategy on the decoded state
/// (decoding and one validated run untimed), for the benchmark that sets the
/// adapter beside the core.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "system" fn Java_io_smoothscale_kafka_NativeBridge_timeNativeAssign<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    strategy: JString<'l>,
    state: JByteArray<'l>,
    iterations: jint,
) -> jlong {
    guarded(&mut env, 0, |env| {
        let strategy = string(env, &strategy, "strategy")?;
        let state = bytes(env, &state, "state")?;
        let iterations = u32::try_from(iterations).map_err(|_| {
            Failure::input(format!("iterations must be at least 0, got {iterations}"))
        })?;
        let nanos = crate::time_assign(&strategy, &state, iterations)?;
        Ok(jlong::try_from(nanos).unwrap_or(jlong::MAX))
    })
}
