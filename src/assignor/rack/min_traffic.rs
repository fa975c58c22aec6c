//! KIP-925's `MinTrafficGraphConstructor` (Kafka 3.6+; see
//! `docs/algorithms.md`, *Rack min_traffic*): every task
//! goes to one client, every client keeps exactly as many of the tasks as it
//! holds now, at minimum total cost.

use crate::flow::FlowNetwork;
use crate::model::{ClientIx, IxVec};

use super::routes::Routes;

/// The minimum-cost placement of `n` tasks over `m` clients that keeps every
/// client's count: `current[i]` is the client (a position below `m`) of task
/// `i` (the `i`-th of the network, not a task position of the state) now,
/// `cost(i, k)` the cost of task `i` on client `k`. Returns the new client of
/// every task. `cost(i, k)` must be the same for every client `k` of one
/// class (`class[k]`, a rack) other than task `i`'s current client.
///
/// Network: source → task (capacity 1, cost 0), task → client (capacity 1,
/// `cost`; as sparse [`Routes`] through one hub per class), client → sink
/// (capacity = the client's current count). Its
/// capacities into the sink add up to `n`, so a flow of `n` units saturates
/// every client → sink arc: counts are kept. Kafka starts from the current
/// placement as the initial flow and cancels negative cycles; this port sends
/// the `n` units from zero flow with successive shortest paths, which reaches
/// a placement of the same (minimum) cost.
pub(super) fn place(
    n: usize,
    m: usize,
    current: &[ClientIx],
    class: &IxVec<ClientIx, usize>,
    cost: impl Fn(usize, ClientIx) -> i64,
) -> Vec<ClientIx> {
    let mut count: IxVec<ClientIx, i64> = IxVec::from_elem(0, m);
    for &k in current {
        count[k] += 1;
    }
    let mut net = FlowNetwork::new();
    let source = net.add_node();
    let tasks: Vec<_> = (0..n).map(|_| net.add_node()).collect();
    let clients: IxVec<ClientIx, _> = (0..m).map(|_| net.add_node()).collect();
    let sink = net.add_node();
    for &tn in &tasks {
        net.add_arc(source, tn, 1, 0);
    }
    let routes = Routes::add(
        &mut net,
        &tasks,
        current,
        class,
        |_| 0,
        |_, k| clients[k],
        cost,
    );
    for (k, &cn) in clients.iter_enumerated() {
        if count[k] > 0 {
            net.add_arc(cn, sink, count[k], 0);
        }
    }
    net.min_cost_flow(source, sink, n as i64)
        .expect("the current placement is a flow of every task");
    routes.placement(&net, current)
}

/// [`place`] for two clients, without a network: keeping both counts means
/// swapping equally many tasks each way, and for `k` swaps the best choice is
/// the `k` tasks of each side that gain most by crossing. The gains, sorted,
/// pair up side by side; swapping pays while a pair's summed cost change is
/// negative, and the change only grows along the sorted lists, so the first
/// pair that does not pay ends it. O(n log n); the same minimum cost as the
/// network. `current[i]` is 0 or 1, the side of the pair (a number of the
/// two-client network, not a client position); ties go to the lower task
/// index.
pub(super) fn place_pair(current: &[usize], cost: impl Fn(usize, usize) -> i64) -> Vec<usize> {
    let mut sides: [Vec<(i64, usize)>; 2] = [Vec::new(), Vec::new()];
    for (i, &s) in current.iter().enumerate() {
        sides[s].push((cost(i, 1 - s) - cost(i, s), i));
    }
    for side in &mut sides {
        side.sort_unstable();
    }
    let mut placed = current.to_vec();
    for (&(g0, i0), &(g1, i1)) in sides[0].iter().zip(&sides[1]) {
        if g0 + g1 >= 0 {
            break;
        }
        placed[i0] = 1;
        placed[i1] = 0;
    }
    placed
}
