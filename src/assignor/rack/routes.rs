//! Sparse task → client arcs for KIP-925 networks.
//!
//! A KIP-925 cost depends on a task, the client's rack and whether the client
//! is the task's current one — nothing else. So instead of one arc per task
//! and client, a task gets one arc to its current client and one arc per
//! *class* of clients (a rack) into a shared hub, and each hub has one arc to
//! every client of its class: `n · (classes + 1) + m` arcs instead of `n · m`.
//!
//! Every placement of the dense network is a flow here of the same cost, and
//! every flow here becomes a placement by handing a hub's units to the
//! clients its flow reached ([`Routes::placement`]); a task handed to a
//! client of its class costs exactly what the hub arc charged — or less, only
//! when that client is its current one, which an optimal flow never leaves
//! cheaper (the direct arc would be cheaper still). So the minimum cost, and
//! the optimality of the placement, are the dense network's.
//!
//! A hub can feed different nodes per task family (`balance_subtopology`
//! routes a subtopology's tasks to that subtopology's per-client nodes), so
//! hubs are keyed by (family, class).

use std::collections::BTreeMap;

use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::flow::FlowNetwork;
use crate::model::{ClientIx, IxVec};

/// The route arcs of every task, and the hubs.
pub(super) struct Routes {
    /// Per task: its direct arc to its current client.
    direct: Vec<EdgeIndex>,
    /// Per task: (hub, arc into it), in class order.
    via: Vec<Vec<(usize, EdgeIndex)>>,
    /// Per hub: (client, arc out of the hub), in client order.
    hubs: Vec<Vec<(ClientIx, EdgeIndex)>>,
}

impl Routes {
    /// Adds the arcs from `task_nodes` (task `i`, the `i`-th of the network,
    /// not a task position of the state, now on client `current[i]`,
    /// of family `family(i)`) toward the node `target(family, k)` of client
    /// `k`; `class[k]` is client `k`'s class and `cost(i, k)` must be the same
    /// for every client `k` of one class other than `current[i]`.
    pub(super) fn add(
        net: &mut FlowNetwork,
        task_nodes: &[NodeIndex],
        current: &[ClientIx],
        class: &IxVec<ClientIx, usize>,
        family: impl Fn(usize) -> u32,
        target: impl Fn(u32, ClientIx) -> NodeIndex,
        cost: impl Fn(usize, ClientIx) -> i64,
    ) -> Routes {
        let n = task_nodes.len();
        // Clients of each class, in client order.
        let mut members: BTreeMap<usize, Vec<ClientIx>> = BTreeMap::new();
        for (k, &c) in class.iter_enumerated() {
            members.entry(c).or_default().push(k);
        }
        let mut hub_of: BTreeMap<(u32, usize), usize> = BTreeMap::new();
        let mut hub_nodes = Vec::new();
        let mut hubs = Vec::new();
        let mut direct = Vec::with_capacity(n);
        let mut via = Vec::with_capacity(n);
        for (i, &tn) in task_nodes.iter().enumerate() {
            let f = family(i);
            let cur = current[i];
            direct.push(net.add_arc(tn, target(f, cur), 1, cost(i, cur)));
            let mut arcs = Vec::new();
            for (&c, ks) in &members {
                // A client of the class other than the current one.
                let Some(&rep) = ks.iter().find(|&&k| k != cur) else {
                    continue;
                };
                let h = *hub_of.entry((f, c)).or_insert_with(|| {
                    let node = net.add_node();
                    let out = ks
                        .iter()
                        .map(|&k| (k, net.add_arc(node, target(f, k), n as i64, 0)))
                        .collect();
                    hub_nodes.push(node);
                    hubs.push(out);
                    hubs.len() - 1
                });
                arcs.push((h, net.add_arc(tn, hub_nodes[h], 1, cost(i, rep))));
            }
            via.push(arcs);
        }
        Routes { direct, via, hubs }
    }

    /// The client of every task after the flow: its current one if the
    /// direct arc carries it, else the next client (in client order) its hub
    /// still owes a unit to, tasks taken in order.
    pub(super) fn placement(&self, net: &FlowNetwork, current: &[ClientIx]) -> Vec<ClientIx> {
        let mut owed: Vec<Vec<(ClientIx, i64)>> = self
            .hubs
            .iter()
            .map(|out| out.iter().map(|&(k, e)| (k, net.arc(e).flow)).collect())
            .collect();
        let mut cursor = vec![0usize; self.hubs.len()];
        (0..self.direct.len())
            .map(|i| {
                if net.arc(self.direct[i]).flow > 0 {
                    return current[i];
                }
                let (h, _) = *self.via[i]
                    .iter()
                    .find(|&&(_, e)| net.arc(e).flow > 0)
                    .expect("every task's unit leaves it on one arc");
                let out = &mut owed[h];
                while out[cursor[h]].1 == 0 {
                    cursor[h] += 1;
                }
                out[cursor[h]].1 -= 1;
                out[cursor[h]].0
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::{balance_subtopology, min_traffic};
    use crate::flow::FlowNetwork;
    use crate::model::{ClientIx, IxVec};

    /// The dense min-traffic network's optimum: one arc per task and client.
    fn dense_optimum(m: usize, current: &[usize], cost: &impl Fn(usize, usize) -> i64) -> i64 {
        let mut net = FlowNetwork::new();
        let source = net.add_node();
        let tasks: Vec<_> = current.iter().map(|_| net.add_node()).collect();
        let clients: Vec<_> = (0..m).map(|_| net.add_node()).collect();
        let sink = net.add_node();
        let mut count = vec![0; m];
        for (i, &tn) in tasks.iter().enumerate() {
            net.add_arc(source, tn, 1, 0);
            count[current[i]] += 1;
            for (k, &cn) in clients.iter().enumerate() {
                net.add_arc(tn, cn, 1, cost(i, k));
            }
        }
        for (k, &cn) in clients.iter().enumerate() {
            net.add_arc(cn, sink, count[k], 0);
        }
        net.min_cost_flow(source, sink, tasks.len() as i64).unwrap()
    }

    fn client(k: usize) -> ClientIx {
        ClientIx::from_position(k)
    }

    #[test]
    fn hub_networks_reach_the_dense_optimum_and_keep_counts() {
        let mut rng = ChaCha8Rng::seed_from_u64(925);
        for _ in 0..500 {
            let m = rng.random_range(1..7);
            let n = rng.random_range(1..15);
            let classes = rng.random_range(1..4);
            let class: IxVec<ClientIx, usize> =
                (0..m).map(|_| rng.random_range(0..classes)).collect();
            let current: Vec<usize> = (0..n).map(|_| rng.random_range(0..m)).collect();
            let owners: Vec<ClientIx> = current.iter().map(|&k| client(k)).collect();
            let task_class: Vec<usize> = (0..n).map(|_| rng.random_range(0..classes)).collect();
            let group: Vec<u32> = (0..n).map(|_| rng.random_range(0..3)).collect();
            let (traffic, stay) = (rng.random_range(0..12), rng.random_range(0..12));
            let cost = |i: usize, k: usize| {
                traffic * i64::from(class[client(k)] != task_class[i])
                    + stay * i64::from(current[i] != k)
            };
            let at = |i: usize, c: ClientIx| cost(i, c.index());
            let placed: Vec<usize> = min_traffic::place(n, m, &owners, &class, at)
                .iter()
                .map(|c| c.index())
                .collect();
            let total: i64 = placed.iter().enumerate().map(|(i, &k)| cost(i, k)).sum();
            assert_eq!(total, dense_optimum(m, &current, &cost));
            if m == 2 {
                let swapped = min_traffic::place_pair(&current, cost);
                let total: i64 = swapped.iter().enumerate().map(|(i, &k)| cost(i, k)).sum();
                assert_eq!(total, dense_optimum(m, &current, &cost));
                assert_eq!(swapped.iter().sum::<usize>(), current.iter().sum::<usize>());
            }
            let count = |p: &[usize], k| p.iter().filter(|&&x| x == k).count();
            assert!((0..m).all(|k| count(&placed, k) == count(&current, k)));
            // balance_subtopology: counts kept and its caps met.
            let placed: Vec<usize> = balance_subtopology::place(n, m, &group, &owners, &class, at)
                .iter()
                .map(|c| c.index())
                .collect();
            assert!((0..m).all(|k| count(&placed, k) == count(&current, k)));
            for g in 0..3 {
                let n_g = group.iter().filter(|&&x| x == g).count();
                for k in 0..m {
                    let cap = (count(&current, k) * n_g).div_ceil(n);
                    let got = (0..n).filter(|&i| group[i] == g && placed[i] == k).count();
                    assert!(got <= cap, "subtopology {g} on client {k}: {got} > {cap}");
                }
            }
        }
    }
}
