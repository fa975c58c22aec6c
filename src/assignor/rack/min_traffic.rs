//! KIP-925's `MinTrafficGraphConstructor` (kip441-spec §2.10): every task
//! goes to one client, every client keeps exactly as many of the tasks as it
//! holds now, at minimum total cost.

use crate::flow::FlowNetwork;

/// The minimum-cost placement of `n` tasks over `m` clients that keeps every
/// client's count: `current[i]` is the client (position below `m`) of task
/// `i` now, `cost(i, k)` the cost of task `i` on client `k`. Returns the new
/// client of every task.
///
/// Network: source → task (capacity 1, cost 0), task → client (capacity 1,
/// `cost`), client → sink (capacity = the client's current count). Its
/// capacities into the sink add up to `n`, so a flow of `n` units saturates
/// every client → sink arc: counts are kept. Kafka starts from the current
/// placement as the initial flow and cancels negative cycles; this port sends
/// the `n` units from zero flow with successive shortest paths, which reaches
/// a placement of the same (minimum) cost.
pub(super) fn place(
    n: usize,
    m: usize,
    current: &[usize],
    cost: impl Fn(usize, usize) -> i64,
) -> Vec<usize> {
    let mut count = vec![0i64; m];
    for &k in current {
        count[k] += 1;
    }
    let mut net = FlowNetwork::new();
    let source = net.add_node();
    let tasks: Vec<_> = (0..n).map(|_| net.add_node()).collect();
    let clients: Vec<_> = (0..m).map(|_| net.add_node()).collect();
    let sink = net.add_node();
    for (i, &tn) in tasks.iter().enumerate() {
        net.add_arc(source, tn, 1, 0);
        for (k, &cn) in clients.iter().enumerate() {
            net.add_arc(tn, cn, 1, cost(i, k));
        }
    }
    for (k, &cn) in clients.iter().enumerate() {
        if count[k] > 0 {
            net.add_arc(cn, sink, count[k], 0);
        }
    }
    net.min_cost_flow(source, sink, n as i64)
        .expect("the current placement is a flow of every task");
    let first_client = clients.first().map_or(0, |c| c.index());
    tasks
        .iter()
        .map(|&tn| {
            let (to, _) = net.flows_from(tn)[0];
            to.index() - first_client
        })
        .collect()
}
