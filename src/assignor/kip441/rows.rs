//! [`Rows`]: many short lists in two flat vectors, built by a stable counting
//! sort that writes one cache-sized block of buckets at a time.

/// About how many items [`Rows::from_runs`] writes per block: 128 KiB of
/// 16-byte lag reports, well inside a core's cache.
const BLOCK_ITEMS: usize = 8 * 1024;

/// One list per bucket (a task, a client, a count) in two flat vectors, no
/// allocation per list: row `b` is `items[start[b]..start[b + 1]]`.
pub(super) struct Rows<T> {
    start: Vec<usize>,
    items: Vec<T>,
}

impl<T: Copy> Rows<T> {
    /// `buckets` lists, `values[i]` in bucket `keys[i]`: each list keeps the
    /// values' order. O(buckets + items), no memory besides the result.
    pub(super) fn keyed(buckets: usize, keys: &[u32], values: &[T]) -> Rows<T> {
        Rows::from_runs(buckets, keys, values, &[keys.len()])
    }

    /// The lists of [`Rows::keyed`], with `keys` cut into runs of the given
    /// lengths. Values are written one block of buckets (about
    /// [`BLOCK_ITEMS`] items) at a time, every run advancing to the block's
    /// end before the next block starts; each run is consumed in order, so
    /// the lists are the same whatever the keys. When every run's keys
    /// ascend (each client's reports, in task order), the scattered writes of
    /// a block stay in cache however many items there are. O(buckets + items
    /// + blocks × runs), with at most items / runs blocks.
    pub(super) fn from_runs(buckets: usize, keys: &[u32], values: &[T], runs: &[usize]) -> Rows<T> {
        debug_assert_eq!(keys.len(), values.len(), "a value for every key");
        debug_assert_eq!(
            runs.iter().sum::<usize>(),
            keys.len(),
            "the runs cover the keys"
        );
        let mut start = vec![0usize; buckets + 1];
        for &k in keys {
            start[k as usize + 1] += 1;
        }
        for b in 0..buckets {
            start[b + 1] += start[b];
        }
        let blocks = (keys.len() / BLOCK_ITEMS).clamp(1, (keys.len() / runs.len().max(1)).max(1));
        // Each block ends at the first bucket whose items start at or past
        // its share of the items.
        let ends: Vec<usize> = (1..=blocks)
            .map(|k| {
                start
                    .partition_point(|&s| s < keys.len() * k / blocks)
                    .min(buckets)
            })
            .collect();
        // (next, end) of every run.
        let mut cursors: Vec<(usize, usize)> = runs
            .iter()
            .scan(0, |offset, &len| {
                *offset += len;
                Some((*offset - len, *offset))
            })
            .collect();
        // Every slot is overwritten: the copy only sizes the vector.
        let mut items = values.to_vec();
        // `start[b]` serves as bucket b's fill cursor, ending at the start of
        // bucket b + 1; shifting by one afterwards restores the starts.
        for (k, &end) in ends.iter().enumerate() {
            let last = k + 1 == blocks;
            for (next, run_end) in &mut cursors {
                while *next < *run_end && (last || (keys[*next] as usize) < end) {
                    let b = keys[*next] as usize;
                    items[start[b]] = values[*next];
                    start[b] += 1;
                    *next += 1;
                }
            }
        }
        start.copy_within(0..buckets, 1);
        start[0] = 0;
        Rows { start, items }
    }

    /// The list of bucket `b`.
    pub(super) fn row(&self, b: usize) -> &[T] {
        &self.items[self.start[b]..self.start[b + 1]]
    }

    /// Every item, bucket after bucket.
    pub(super) fn into_items(self) -> Vec<T> {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::Rows;

    #[test]
    fn keyed_rows_are_a_stable_sort_by_key() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        for _ in 0..100 {
            let buckets: u32 = rng.random_range(1..20);
            let keys: Vec<u32> = (0..rng.random_range(0..60))
                .map(|_| rng.random_range(0..buckets))
                .collect();
            let values: Vec<usize> = (0..keys.len()).collect();
            let rows = Rows::keyed(buckets as usize, &keys, &values);
            for b in 0..buckets {
                let expected: Vec<usize> = (0..keys.len()).filter(|&i| keys[i] == b).collect();
                assert_eq!(rows.row(b as usize), expected.as_slice());
            }
        }
    }

    /// Runs of ascending keys, many blocks: the same lists as one run.
    #[test]
    fn runs_give_the_rows_of_one_run() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for _ in 0..200 {
            let buckets: usize = rng.random_range(1..3000);
            let key_bound = u32::try_from(buckets).expect("few buckets");
            let mut keys: Vec<u32> = Vec::new();
            let mut lens = Vec::new();
            for _ in 0..rng.random_range(0..40) {
                let mut run: Vec<u32> = (0..rng.random_range(0..800))
                    .map(|_| rng.random_range(0..key_bound))
                    .collect();
                run.sort_unstable();
                run.dedup();
                lens.push(run.len());
                keys.extend(run);
            }
            let values: Vec<usize> = (0..keys.len()).collect();
            let blocked = Rows::from_runs(buckets, &keys, &values, &lens);
            let plain = Rows::keyed(buckets, &keys, &values);
            // The stable grouping by brute force: each bucket's positions
            // in input order.
            let mut stable: Vec<Vec<usize>> = vec![Vec::new(); buckets];
            for (i, &key) in keys.iter().enumerate() {
                stable[key as usize].push(i);
            }
            for (b, expected) in stable.iter().enumerate() {
                assert_eq!(blocked.row(b), plain.row(b));
                assert_eq!(blocked.row(b), expected.as_slice());
            }
            assert_eq!(blocked.start, plain.start);
            assert_eq!(blocked.items, plain.items);
        }
    }
}
