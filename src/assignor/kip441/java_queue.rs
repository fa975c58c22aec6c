//! The order in which Java's `java.util.PriorityQueue` hands out elements:
//! Kafka's `TaskMovement` queue is one, and where two movements compare equal
//! (the same task, two destinations) Kafka serves them in *heap position*
//! order, which is neither insertion nor id order. Replaying the array heap's
//! `siftUp` / `siftDown` (OpenJDK's, unchanged since Java 8) on the same
//! offers in the same order gives exactly that sequence, in O(n log n).

use std::cmp::Ordering;

/// The sequence of `poll()`s of a `PriorityQueue` built by offering `items`
/// in order, with `cmp` as its comparator.
pub(super) fn poll_order<T: Copy>(items: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    let mut heap: Vec<T> = Vec::with_capacity(items.len());
    for &x in items {
        // offer: siftUp from the new last slot.
        let mut k = heap.len();
        heap.push(x);
        while k > 0 {
            let parent = (k - 1) / 2;
            if cmp(&x, &heap[parent]) != Ordering::Less {
                break;
            }
            heap[k] = heap[parent];
            k = parent;
        }
        heap[k] = x;
    }
    let mut out = Vec::with_capacity(items.len());
    while let Some(last) = heap.pop() {
        let Some(&head) = heap.first() else {
            out.push(last);
            break;
        };
        // poll: take the head, siftDown the former last element from the root.
        out.push(head);
        let n = heap.len();
        let mut k = 0;
        while k < n / 2 {
            let mut child = 2 * k + 1;
            if child + 1 < n && cmp(&heap[child], &heap[child + 1]) == Ordering::Greater {
                child += 1;
            }
            if cmp(&last, &heap[child]) != Ordering::Greater {
                break;
            }
            heap[k] = heap[child];
            k = child;
        }
        heap[k] = last;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::poll_order;

    #[test]
    fn distinct_keys_come_out_sorted() {
        let items = [5, 3, 9, 1, 7, 2, 8];
        assert_eq!(
            poll_order(&items, |a, b| a.cmp(b)),
            vec![1, 2, 3, 5, 7, 8, 9]
        );
    }

    /// Equal keys (compared by the first field only) leave in heap-position
    /// order, as OpenJDK's `PriorityQueue` does:
    /// `new PriorityQueue<int[]>(comparingInt(a -> a[0]))` offered
    /// `(0,a) (0,b) (0,c) (0,d)` polls `a d c b` — after the first poll the
    /// last element `d` is sifted to the root and stops there, its key being
    /// equal to its children's.
    #[test]
    fn equal_keys_leave_in_heap_position_order() {
        let items = [(0, 'a'), (0, 'b'), (0, 'c'), (0, 'd')];
        let order: String = poll_order(&items, |x, y| x.0.cmp(&y.0))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(order, "adcb");
    }

    /// Mixed keys: OpenJDK 17 polls `0b 0d 0e 0g 1a 1c 1f` for these offers.
    #[test]
    fn mixed_keys_match_openjdk() {
        let items = [
            (1, 'a'),
            (0, 'b'),
            (1, 'c'),
            (0, 'd'),
            (0, 'e'),
            (1, 'f'),
            (0, 'g'),
        ];
        let order: String = poll_order(&items, |x, y| x.0.cmp(&y.0))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(order, "bdegacf");
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(poll_order::<u8>(&[], |a, b| a.cmp(b)), Vec::<u8>::new());
        assert_eq!(poll_order(&[4], |a: &i32, b| a.cmp(b)), vec![4]);
    }
}
