//! KIP-925's `BalanceSubtopologyGraphConstructor` (Kafka 3.6+; see
//! `docs/algorithms.md`, *Rack balance_subtopology*): as
//! min traffic, but each client's share of one subtopology is capped at its
//! fair fraction, rounded up.

use std::collections::BTreeMap;

use crate::flow::FlowNetwork;
use crate::model::{ClientIx, IxVec};

use super::routes::Routes;

/// The minimum-cost placement of `n` tasks over `m` clients keeping every
/// client's count, where client `k` gets at most `⌈orig(k) · n_g / n⌉` tasks
/// of subtopology `g` (`orig(k)` = its current count, `n_g` = tasks of `g`
/// among the `n`). `group[i]` is task `i`'s subtopology, `current[i]` its
/// client now, `cost(i, k)` its cost on client `k` — the same for every
/// client of one class (`class[k]`, a rack) other than the current one.
///
/// Network: source → task (1, 0), task → (g, k) (1, `cost`; as sparse
/// [`Routes`] through one hub per subtopology and class), (g, k) → k
/// (the cap, 0), k → sink (`orig(k)`, 0). Kafka first runs Edmonds–Karp
/// max flow from zero flow and then cancels negative cycles from that flow;
/// since a flow of `n` units always exists (the fractional shares
/// `orig(k) · n_g / n` are one), a minimum-cost flow of `n` units from zero
/// flow — what this port computes — has the same cost. The placements can
/// differ: Kafka's optimum depends on where its max flow happened to start,
/// so only cost and caps are comparable. The cap is computed in integers
/// (Kafka: `Math.ceil` of a `double` product, which agrees except where
/// rounding lands just above an integer).
pub(super) fn place(
    n: usize,
    m: usize,
    group: &[u32],
    current: &[ClientIx],
    class: &IxVec<ClientIx, usize>,
    cost: impl Fn(usize, ClientIx) -> i64,
) -> Vec<ClientIx> {
    let mut count: IxVec<ClientIx, i64> = IxVec::from_elem(0, m);
    for &k in current {
        count[k] += 1;
    }
    let mut per_group: BTreeMap<u32, i64> = BTreeMap::new();
    for &g in group {
        *per_group.entry(g).or_default() += 1;
    }
    let mut net = FlowNetwork::new();
    let source = net.add_node();
    let tasks: Vec<_> = (0..n).map(|_| net.add_node()).collect();
    let clients: IxVec<ClientIx, _> = (0..m).map(|_| net.add_node()).collect();
    let sink = net.add_node();
    // (g, k) nodes, subtopologies ascending, clients ascending.
    let mut middle = BTreeMap::new();
    for (&g, &n_g) in &per_group {
        for (k, &cn) in clients.iter_enumerated() {
            let node = net.add_node();
            let cap = (count[k] * n_g + n as i64 - 1) / n as i64;
            net.add_arc(node, cn, cap, 0);
            middle.insert((g, k), node);
        }
    }
    for &tn in &tasks {
        net.add_arc(source, tn, 1, 0);
    }
    let family = |i: usize| group[i];
    let target = |g: u32, k: ClientIx| middle[&(g, k)];
    let routes = Routes::add(&mut net, &tasks, current, class, family, target, cost);
    for (k, &cn) in clients.iter_enumerated() {
        if count[k] > 0 {
            net.add_arc(cn, sink, count[k], 0);
        }
    }
    net.min_cost_flow(source, sink, n as i64)
        .expect("the fractional fair shares make a flow of every task");
    routes.placement(&net, current)
}
