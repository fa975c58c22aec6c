//! The JNI entry points of `io.smoothscale.kafka.NativeBridge`. Each one
//! converts its arguments, calls the safe Rust API of this crate, and turns
//! an error (or a panic) into a pending `SmoothscaleException`, returning
//! `null` / `0`; Java then throws. These five functions are the only items of
//! the crate that need `#[allow(unsafe_code)]`, for `#[no_mangle]`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::objects::{JByteArray, JClass, JObject, JObjectArray, JString};
use jni::sys::{jint, jlong};
use jni::JNIEnv;

/// The exception every failure becomes on the Java side.
const EXCEPTION: &str = "io/smoothscale/kafka/SmoothscaleException";

/// Runs `body`; on an error or a panic, leaves a `SmoothscaleException` with
/// the message pending (unless Java already has one pending, such as an
/// `OutOfMemoryError`) and returns `fallback`.
fn guarded<'l, T>(
    env: &mut JNIEnv<'l>,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv<'l>) -> Result<T, String>,
) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)))
        .unwrap_or_else(|_| Err("smoothscale panicked in the JNI glue".into()));
    match outcome {
        Ok(value) => value,
        Err(message) => {
            if !env.exception_check().unwrap_or(true) {
                // If even throwing fails, the JVM has an error pending already.
                let _ = env.throw_new(EXCEPTION, message);
            }
            fallback
        }
    }
}

fn string(env: &mut JNIEnv<'_>, s: &JString<'_>, what: &str) -> Result<String, String> {
    if s.is_null() {
        return Err(format!("{what} must not be null"));
    }
    env.get_string(s)
        .map(Into::into)
        .map_err(|e| format!("{what}: {e}"))
}

fn bytes(env: &mut JNIEnv<'_>, array: &JByteArray<'_>, what: &str) -> Result<Vec<u8>, String> {
    if array.is_null() {
        return Err(format!("{what} must not be null"));
    }
    env.convert_byte_array(array)
        .map_err(|e| format!("{what}: {e}"))
}

fn java_bytes<'l>(env: &mut JNIEnv<'l>, bytes: &[u8]) -> Result<JByteArray<'l>, String> {
    env.byte_array_from_slice(bytes)
        .map_err(|e| format!("cannot return {} bytes to Java: {e}", bytes.len()))
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
        let len = jint::try_from(names.len()).map_err(|e| e.to_string())?;
        let array = env
            .new_object_array(len, "java/lang/String", JObject::null())
            .map_err(|e| e.to_string())?;
        for (i, name) in (0..len).zip(names) {
            let s = env.new_string(name).map_err(|e| e.to_string())?;
            env.set_object_array_element(&array, i, s)
                .map_err(|e| e.to_string())?;
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
            Some(violations) => env.new_string(violations).map_err(|e| e.to_string()),
        }
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
        let seed =
            u64::try_from(seed).map_err(|_| format!("seed must be at least 0, got {seed}"))?;
        let state = crate::generate_preset(&preset, seed)?;
        java_bytes(env, &state)
    })
}

/// `static native long timeNativeAssign(String strategy, byte[] state, int iterations)`:
/// nanoseconds for `iterations` runs of the strategy on the decoded state
/// (decoding and validation untimed), for the benchmark that sets the
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
        let iterations = u32::try_from(iterations)
            .map_err(|_| format!("iterations must be at least 0, got {iterations}"))?;
        let nanos = crate::time_assign(&strategy, &state, iterations)?;
        Ok(jlong::try_from(nanos).unwrap_or(jlong::MAX))
    })
}
