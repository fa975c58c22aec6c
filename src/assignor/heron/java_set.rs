//! The order in which Heron sums a container's CPU. Heron's builder keeps a
//! container's instances in a `java.util.HashSet<InstancePlan>` and checks a
//! placement as `(Σ instances + padding) + instance ≤ capacity`
//! (`Container.getTotalUsedResources`, then `ResourceConstraint`), the Σ
//! taken in the set's iteration order, starting from 0. CPU is a `double`, so
//! that order decides the last bit: one 4-CPU container holding a 2.0-CPU
//! instance and four 0.2-CPU ones sums to 2.8000000000000007 when the 2.0 comes
//! first (a fifth 0.2 then does not fit) and to 2.8 when it comes last (it
//! fits). RAM and disk are whole bytes, exact in any order.
//!
//! A `HashSet` iterates its table by bucket, `(h ^ h >>> 16) & (capacity − 1)`
//! for the element's `hashCode()` h, each bucket in insertion order (a resize
//! splits buckets keeping that order). The table starts at 16 buckets and
//! doubles when the size passes ¾ of it, or when one bucket reaches 9
//! entries while the table has fewer than 64 buckets (OpenJDK's `HashMap`,
//! unchanged since Java 8). `InstancePlan.hashCode()` combines the
//! component's name, the instance's task id and component index, and its
//! `Resource` (CPU bits, RAM and disk in bytes), with Java's `31 × h + x` in
//! wrapping 32-bit arithmetic. Replaying that gives Heron's sum exactly.
//!
//! Not replayed: a bucket of 9 or more entries in a table of 64 or more
//! (Java then keeps the bucket as a tree, whose order can differ from
//! insertion order); it needs more than 48 instances in one container.

/// What `InstancePlan.hashCode()` reads of one Heron instance.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Instance {
    /// `hashCode()` of the component's name (here the subtopology number,
    /// [`decimal_hash`]).
    pub component_hash: i32,
    /// Heron's global task id.
    pub task_id: i32,
    /// The instance's index within its component.
    pub component_index: i32,
    /// CPU cores.
    pub cpu: f64,
    /// RAM, MiB (Heron hashes bytes).
    pub ram_mb: u64,
    /// Disk, MiB (Heron hashes bytes).
    pub disk_mb: u64,
}

impl Instance {
    /// Java's `InstancePlan.hashCode()`.
    pub fn hash_code(&self) -> i32 {
        let bytes = |mb: u64| long_hash(mb.wrapping_mul(1 << 20));
        let mut resource = long_hash(self.cpu.to_bits());
        resource = mix(resource, bytes(self.ram_mb));
        resource = mix(resource, bytes(self.disk_mb));
        let mut h = self.component_hash;
        h = mix(h, self.task_id);
        h = mix(h, self.component_index);
        mix(h, resource)
    }
}

/// `31 × h + x`, wrapping, as Java's generated `hashCode()` methods combine.
fn mix(h: i32, x: i32) -> i32 {
    h.wrapping_mul(31).wrapping_add(x)
}

/// Java's `String.hashCode()` (UTF-16 code units).
#[cfg(test)]
fn string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, unit| mix(h, i32::from(unit)))
}

/// Java's `String.hashCode()` of `n` written in decimal, without the string.
pub(super) fn decimal_hash(n: u32) -> i32 {
    let mut digits = [0u8; 10];
    let (mut len, mut rest) = (0, n);
    loop {
        digits[len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits[..len]
        .iter()
        .rev()
        .fold(0i32, |h, &d| mix(h, i32::from(d)))
}

/// Java's `Long.hashCode()`: the two halves XORed.
#[allow(clippy::cast_possible_truncation)] // Java's (int) cast: the low 32 bits
fn long_hash(bits: u64) -> i32 {
    (bits ^ (bits >> 32)) as u32 as i32
}

/// A container's instances as Java's `HashSet` holds them: each one's CPU
/// and spread hash, in insertion order, and the table size.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct InstanceSet {
    /// `(h ^ h >>> 16, cpu)` per instance, in insertion order.
    entries: Vec<(u32, f64)>,
    /// Buckets in the table: 16, doubling.
    buckets: usize,
    /// Entries per bucket.
    counts: Vec<u32>,
}

impl Default for InstanceSet {
    fn default() -> Self {
        InstanceSet {
            entries: Vec::new(),
            buckets: 16,
            counts: vec![0; 16],
        }
    }
}

impl InstanceSet {
    /// Adds an instance with `hash_code()` `hash` and `cpu` cores, growing
    /// the table as `HashMap.putVal` does. O(1), amortised.
    #[allow(clippy::cast_sign_loss)] // Java's >>> on the int's bits
    pub fn insert(&mut self, hash: i32, cpu: f64) {
        let h = hash as u32;
        let spread = h ^ (h >> 16);
        self.entries.push((spread, cpu));
        let bucket = self.bucket(spread);
        self.counts[bucket] += 1;
        // treeifyBin on a short table resizes instead.
        if self.counts[bucket] >= 9 && self.buckets < 64 {
            self.grow();
        }
        // ++size > threshold (¾ of the table).
        while self.entries.len() > self.buckets / 4 * 3 {
            self.grow();
        }
    }

    /// Doubles the table.
    fn grow(&mut self) {
        self.buckets *= 2;
        self.counts = vec![0; self.buckets];
        for i in 0..self.entries.len() {
            let b = self.bucket(self.entries[i].0);
            self.counts[b] += 1;
        }
    }

    fn bucket(&self, spread: u32) -> usize {
        spread as usize & (self.buckets - 1)
    }

    /// Σ CPU in iteration order, from 0.0, as `Resource::plus` reduces it.
    /// O(k log k) for k instances.
    pub fn cpu_sum(&self) -> f64 {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| (self.bucket(self.entries[i].0), i));
        order.iter().fold(0.0, |sum, &i| sum + self.entries[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(component: &str, task_id: i32, index: i32, cpu: f64) -> Instance {
        Instance {
            component_hash: string_hash(component),
            task_id,
            component_index: index,
            cpu,
            ram_mb: 1024,
            disk_mb: 1024,
        }
    }

    /// Java's values, worked by hand: `"0".hashCode()` = 48;
    /// `"ab".hashCode()` = 97 × 31 + 98 = 3105; `Long.hashCode(1 GiB)` =
    /// 2³⁰; `Double.doubleToLongBits(2.0)` = 0x4000_0000_0000_0000, whose
    /// halves XOR to 0x4000_0000.
    #[test]
    fn hashes_are_javas() {
        assert_eq!(string_hash("0"), 48);
        assert_eq!(string_hash("ab"), 3105);
        for n in [0, 7, 10, 42, 123_456, u32::MAX] {
            assert_eq!(decimal_hash(n), string_hash(&n.to_string()), "{n}");
        }
        assert_eq!(long_hash(1 << 30), 1 << 30);
        assert_eq!(long_hash(2.0f64.to_bits()), 0x4000_0000);
        // Resource(2.0, 1 GiB, 1 GiB): (2³⁰ × 31 + 2³⁰) × 31 + 2³⁰
        // = 2³⁰ × 993 ≡ 2³⁰ (mod 2³², as 993 ≡ 1 mod 4).
        // InstancePlan("0", 1, 0): ((48 × 31 + 1) × 31 + 0) × 31 + 2³⁰.
        let expected = (((48i32 * 31 + 1) * 31) * 31).wrapping_add(1 << 30);
        assert_eq!(instance("0", 1, 0, 2.0).hash_code(), expected);
    }

    /// The case of issue 16: a 2.0-CPU instance (component "0", task id 1)
    /// and four 0.2-CPU ones (component "1", task ids 2..5, indexes 0..3).
    /// Their spread hashes put the 2.0 in the last bucket, so Java sums the
    /// four 0.2 first, 0.2 + 0.2 + 0.2 + 0.2 + 2.0 = 2.8 exactly, where the
    /// placement order gives 2.8000000000000007.
    #[test]
    fn the_sum_follows_the_buckets() {
        let mut set = InstanceSet::default();
        let big = instance("0", 1, 0, 2.0);
        set.insert(big.hash_code(), big.cpu);
        for i in 0..4 {
            let small = instance("1", 2 + i, i, 0.2);
            set.insert(small.hash_code(), small.cpu);
        }
        let placement_order = [2.0, 0.2, 0.2, 0.2, 0.2].iter().fold(0.0, |s, x| s + x);
        assert_eq!(placement_order, 2.800_000_000_000_000_7);
        assert_eq!(set.cpu_sum(), 2.8);
    }

    /// Sums a JVM printed (OpenJDK 17: a `HashSet` of objects with
    /// `InstancePlan`'s `hashCode` recipe, summed from 0.0 in iteration
    /// order; 3,000 random sets of 1 to 80 agreed bit for bit, 991 of them
    /// unlike the insertion-order sum; three kept here). Each line: the sum's
    /// bits, then per instance component, task id, index, CPU bits, RAM MiB,
    /// disk MiB.
    const JVM_SUMS: &str = "\
4008666666666666|3 104 35 3fc999999999999a 512 2048;1 98 2 3fe6666666666666 1024 512;3 164 23 3fa999999999999a 2048 2048;1 153 14 4000000000000000 2048 1024;0 1 29 3fb999999999999a 192 512
400f333333333334|5 170 27 3fd3333333333333 192 3000;2 175 48 3fb999999999999a 2048 192;4 11 29 3ff0000000000000 3000 2048;4 6 2 3ff0000000000000 512 1024;0 98 49 3ff8000000000000 192 192
4027666666666666|5 33 48 3fd3333333333333 3000 512;2 25 15 3fd3333333333333 512 2048;1 180 31 3fe6666666666666 2048 2048;5 53 41 4000000000000000 192 192;2 175 45 3ff8000000000000 192 1024;0 1 4 4000000000000000 3000 3000;1 164 40 3ff0000000000000 2048 1024;3 101 23 3fe6666666666666 192 192;2 114 46 3fc999999999999a 3000 512;1 157 16 3ff0000000000000 2048 2048;0 142 4 3fc999999999999a 3000 2048;5 170 38 3fb999999999999a 3000 1024;0 187 47 3ff8000000000000 1024 192;5 19 24 3fc999999999999a 192 192";

    #[test]
    fn sums_as_a_jvm_does() {
        let hex = |h: &str| u64::from_str_radix(h, 16).unwrap();
        for line in JVM_SUMS.lines() {
            let (want, items) = line.split_once('|').unwrap();
            let mut set = InstanceSet::default();
            let mut insertion_order = 0.0;
            for item in items.split(';') {
                let f: Vec<&str> = item.split(' ').collect();
                let one = Instance {
                    component_hash: string_hash(f[0]),
                    task_id: f[1].parse().unwrap(),
                    component_index: f[2].parse().unwrap(),
                    cpu: f64::from_bits(hex(f[3])),
                    ram_mb: f[4].parse().unwrap(),
                    disk_mb: f[5].parse().unwrap(),
                };
                insertion_order += one.cpu;
                set.insert(one.hash_code(), one.cpu);
            }
            assert_eq!(set.cpu_sum().to_bits(), hex(want), "{line}");
            assert_ne!(insertion_order.to_bits(), hex(want), "{line}");
        }
    }

    /// The table doubles past ¾ full: 12 entries keep 16 buckets, the 13th
    /// makes 32.
    #[test]
    fn the_table_grows_past_three_quarters() {
        let mut set = InstanceSet::default();
        for i in 0..12 {
            set.insert(i, 1.0);
        }
        assert_eq!(set.buckets, 16);
        set.insert(12, 1.0);
        assert_eq!(set.buckets, 32);
        // Nine equal hashes in one bucket: a resize instead of a tree.
        let mut same = InstanceSet::default();
        for _ in 0..9 {
            same.insert(7, 1.0);
        }
        assert_eq!(same.buckets, 32);
    }
}
