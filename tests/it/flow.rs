//! The min-cost flow solver (`smoothscale::flow`) against independent
//! oracles:
//!
//! * tiny networks (≤ 6 nodes, ≤ 10 arcs, capacities ≤ 3, costs may be
//!   negative): brute-force enumeration of every integer flow gives the
//!   cheapest flow of every value, so the optimal cost, the maximum flow
//!   (`Infeasible` exactly when it is below the demand) and negative cycles
//!   (a circulation cheaper than 0) are all checked;
//! * assignment networks (source → tasks → clients → sink): enumeration of
//!   every assignment;
//! * larger networks: feasibility, a max flow computed here (Edmonds–Karp)
//!   and the optimality certificate "no negative cycle in the residual
//!   network", checked with Floyd–Warshall written here.
//!
//! Each property runs `support::proptest_config()` cases, and each seeded
//! loop a fixed number of ChaCha networks.

use std::collections::{BTreeMap, VecDeque};

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smoothscale::flow::{FlowError, FlowNetwork};

use crate::support;

/// A network as plain data: arcs `(from, to, capacity, cost)`.
#[derive(Debug, Clone)]
struct Spec {
    nodes: usize,
    arcs: Vec<(usize, usize, i64, i64)>,
    source: usize,
    sink: usize,
    demand: i64,
}

impl Spec {
    fn build(&self) -> FlowNetwork {
        let mut net = FlowNetwork::new();
        let ids: Vec<_> = (0..self.nodes).map(|_| net.add_node()).collect();
        for &(u, v, cap, cost) in &self.arcs {
            net.add_arc(ids[u], ids[v], cap, cost);
        }
        net
    }

    fn solve(&self, by: Solver) -> (FlowNetwork, Result<i64, FlowError>) {
        let mut net = self.build();
        let ids: Vec<_> = (0..self.nodes)
            .map(petgraph::graph::NodeIndex::new)
            .collect();
        let (s, t) = (ids[self.source], ids[self.sink]);
        let got = match by {
            Solver::Paths => net.min_cost_flow(s, t, self.demand),
            Solver::Scaling => net.min_cost_flow_by_scaling(s, t, self.demand),
        };
        (net, got)
    }
}

/// The two solvers: successive shortest paths and cost scaling. Every
/// oracle below checks both.
#[derive(Debug, Clone, Copy)]
enum Solver {
    Paths,
    Scaling,
}

const SOLVERS: [Solver; 2] = [Solver::Paths, Solver::Scaling];

fn flows(net: &FlowNetwork) -> Vec<i64> {
    net.arcs().map(|(_, _, a)| a.flow).collect()
}

/// Capacities respected, conservation everywhere but at source and sink,
/// and exactly `value` units leave the source (and reach the sink).
fn assert_feasible(spec: &Spec, flow: &[i64], value: i64) {
    let mut balance = vec![0i64; spec.nodes];
    for (i, (&(u, v, cap, _), &f)) in spec.arcs.iter().zip(flow).enumerate() {
        assert!(
            (0..=cap).contains(&f),
            "arc {i} carries {f} of {cap}: {spec:?}"
        );
        balance[u] += f;
        balance[v] -= f;
    }
    for (node, &b) in balance.iter().enumerate() {
        let want = if spec.source == spec.sink {
            0
        } else if node == spec.source {
            value
        } else if node == spec.sink {
            -value
        } else {
            0
        };
        assert_eq!(
            b, want,
            "net outflow of node {node}: {spec:?} flows {flow:?}"
        );
    }
}

fn cost_of(spec: &Spec, flow: &[i64]) -> i64 {
    spec.arcs.iter().zip(flow).map(|(a, f)| a.3 * f).sum()
}

/// Residual arcs `(from, to, cost)` of `flow` (all-zero flow: the network).
fn residual(spec: &Spec, flow: &[i64]) -> Vec<(usize, usize, i64)> {
    let mut out = Vec::new();
    for (&(u, v, cap, cost), &f) in spec.arcs.iter().zip(flow) {
        if f < cap {
            out.push((u, v, cost));
        }
        if f > 0 {
            out.push((v, u, -cost));
        }
    }
    out
}

/// Floyd–Warshall: does a negative-cost cycle exist?
fn has_negative_cycle(nodes: usize, arcs: &[(usize, usize, i64)]) -> bool {
    const INF: i64 = i64::MAX / 4;
    let mut d = vec![vec![INF; nodes]; nodes];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0;
    }
    for &(u, v, c) in arcs {
        d[u][v] = d[u][v].min(c);
    }
    for k in 0..nodes {
        for i in 0..nodes {
            if d[i][k] == INF {
                continue;
            }
            for j in 0..nodes {
                if d[k][j] < INF {
                    let via = d[i][k] + d[k][j];
                    if via < d[i][j] {
                        d[i][j] = via;
                    }
                }
            }
        }
        if (0..nodes).any(|i| d[i][i] < 0) {
            return true;
        }
    }
    false
}

/// Edmonds–Karp maximum flow value (capped at `limit`).
fn max_flow(spec: &Spec, limit: i64) -> i64 {
    if spec.source == spec.sink {
        return limit;
    }
    let n = spec.nodes;
    let mut cap = vec![vec![0i64; n]; n];
    for &(u, v, c, _) in &spec.arcs {
        if u != v {
            cap[u][v] += c;
        }
    }
    let mut total = 0;
    while total < limit {
        let mut parent = vec![usize::MAX; n];
        parent[spec.source] = spec.source;
        let mut queue = VecDeque::from([spec.source]);
        while let Some(u) = queue.pop_front() {
            for v in 0..n {
                if parent[v] == usize::MAX && cap[u][v] > 0 {
                    parent[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if parent[spec.sink] == usize::MAX {
            break;
        }
        let mut push = limit - total;
        let mut v = spec.sink;
        while v != spec.source {
            push = push.min(cap[parent[v]][v]);
            v = parent[v];
        }
        let mut v = spec.sink;
        while v != spec.source {
            cap[parent[v]][v] -= push;
            cap[v][parent[v]] += push;
            v = parent[v];
        }
        total += push;
    }
    total
}

/// Every integer flow that fits the capacities and conserves flow at every
/// node but the source and sink, grouped by value (net outflow of the
/// source): the cheapest cost of each value.
fn brute_force(spec: &Spec) -> BTreeMap<i64, i64> {
    let m = spec.arcs.len();
    // A node's balance is final once its last arc is set.
    let mut last = vec![None; spec.nodes];
    for (i, &(u, v, _, _)) in spec.arcs.iter().enumerate() {
        last[u] = Some(i);
        last[v] = Some(i);
    }
    let mut closes: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (node, l) in last.iter().enumerate() {
        if let Some(i) = l {
            if node != spec.source && node != spec.sink {
                closes[*i].push(node);
            }
        }
    }
    let mut best = BTreeMap::new();
    let mut balance = vec![0i64; spec.nodes];
    enumerate(spec, &closes, 0, 0, &mut balance, &mut best);
    best
}

fn enumerate(
    spec: &Spec,
    closes: &[Vec<usize>],
    i: usize,
    cost: i64,
    balance: &mut [i64],
    best: &mut BTreeMap<i64, i64>,
) {
    if i == spec.arcs.len() {
        if spec.source == spec.sink && balance[spec.source] != 0 {
            return;
        }
        let value = balance[spec.source];
        let entry = best.entry(value).or_insert(cost);
        *entry = (*entry).min(cost);
        return;
    }
    let (u, v, cap, c) = spec.arcs[i];
    for f in 0..=cap {
        balance[u] += f;
        balance[v] -= f;
        if closes[i].iter().all(|&node| balance[node] == 0) {
            enumerate(spec, closes, i + 1, cost + c * f, balance, best);
        }
        balance[u] -= f;
        balance[v] += f;
    }
}

/// Checks the solver's answer on `spec` against brute force.
fn check_tiny(spec: &Spec, by: Solver) {
    let best = brute_force(spec);
    let (net, got) = spec.solve(by);
    let flow = flows(&net);
    let circulation = best[&0];
    assert!(circulation <= 0, "the zero flow costs 0");
    if circulation < 0 {
        assert_eq!(got, Err(FlowError::NegativeCycle), "{spec:?}");
        assert!(flow.iter().all(|&f| f == 0));
        assert!(net.residual_has_negative_cycle());
        return;
    }
    if got.is_ok() || matches!(by, Solver::Paths) {
        assert!(!has_negative_cycle(spec.nodes, &residual(spec, &flow)));
    }
    if spec.source == spec.sink || spec.demand <= 0 {
        assert_eq!(got, Ok(0), "{spec:?}");
        assert!(flow.iter().all(|&f| f == 0));
        return;
    }
    let max = *best.keys().next_back().expect("the zero flow");
    assert_eq!(max, max_flow(spec, i64::MAX), "two max-flow oracles agree");
    let value = spec.demand.min(max);
    // Cost scaling stops at a maximum flow when the demand cannot be met.
    let cheapest = got.is_ok() || matches!(by, Solver::Paths);
    match got {
        Ok(cost) => {
            assert!(spec.demand <= max, "{spec:?}");
            assert_eq!(cost, best[&spec.demand], "{spec:?} flows {flow:?}");
        }
        Err(FlowError::Infeasible { demand, reached }) => {
            assert!(spec.demand > max, "{spec:?}");
            assert_eq!((demand, reached), (spec.demand, max), "{spec:?}");
        }
        Err(e) => panic!("unexpected {e}: {spec:?}"),
    }
    // The arcs hold a flow of the value sent, a cheapest one unless cost
    // scaling found the demand too high.
    assert_feasible(spec, &flow, value);
    if cheapest {
        assert_eq!(
            cost_of(spec, &flow),
            best[&value],
            "{spec:?} flows {flow:?}"
        );
        assert_eq!(net.total_cost(), best[&value]);
        assert!(
            !net.residual_has_negative_cycle(),
            "{spec:?} flows {flow:?}"
        );
    }
}

fn random_tiny(rng: &mut impl Rng) -> Spec {
    let nodes = rng.random_range(2..=6);
    let arcs = (0..rng.random_range(0..=10))
        .map(|_| {
            (
                rng.random_range(0..nodes),
                rng.random_range(0..nodes),
                rng.random_range(0..=3),
                rng.random_range(-3..=6),
            )
        })
        .collect();
    let source = rng.random_range(0..nodes);
    let sink = if rng.random_ratio(1, 20) {
        source
    } else {
        (source + rng.random_range(1..nodes)) % nodes
    };
    Spec {
        nodes,
        arcs,
        source,
        sink,
        demand: rng.random_range(0..=7),
    }
}

#[test]
fn tiny_networks_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x00f1_0e00);
    let mut outcomes = BTreeMap::new();
    for _ in 0..5_000 {
        let spec = random_tiny(&mut rng);
        for by in SOLVERS {
            check_tiny(&spec, by);
        }
        let (_, got) = spec.solve(Solver::Scaling);
        let kind = match got {
            Ok(_) => "ok",
            Err(FlowError::Infeasible { .. }) => "infeasible",
            Err(FlowError::NegativeCycle) => "negative cycle",
        };
        *outcomes.entry(kind).or_insert(0) += 1;
    }
    // The generator reaches every outcome often.
    for kind in ["ok", "infeasible", "negative cycle"] {
        assert!(
            outcomes.get(kind).copied().unwrap_or(0) >= 250,
            "{outcomes:?}"
        );
    }
}

fn tiny_spec() -> impl Strategy<Value = Spec> {
    (2usize..=6)
        .prop_flat_map(|nodes| {
            (
                Just(nodes),
                proptest::collection::vec((0..nodes, 0..nodes, 0i64..=3, -3i64..=6), 0..=10),
                0..nodes,
                0..nodes,
                0i64..=7,
            )
        })
        .prop_map(|(nodes, arcs, source, sink, demand)| Spec {
            nodes,
            arcs,
            source,
            sink,
            demand,
        })
}

/// Assignment networks: source → task (1) → client (1, cost) → sink (quota).
#[derive(Debug, Clone)]
struct Assignment {
    /// `costs[t][k]`, `None` when task `t` may not go to client `k`.
    costs: Vec<Vec<Option<i64>>>,
    quota: Vec<i64>,
    demand: i64,
}

impl Assignment {
    fn spec(&self) -> Spec {
        let (tasks, clients) = (self.costs.len(), self.quota.len());
        let (source, sink) = (0, 1 + tasks + clients);
        let mut arcs = Vec::new();
        for t in 0..tasks {
            arcs.push((source, 1 + t, 1, 0));
        }
        for (t, row) in self.costs.iter().enumerate() {
            for (k, c) in row.iter().enumerate() {
                if let Some(c) = c {
                    arcs.push((1 + t, 1 + tasks + k, 1, *c));
                }
            }
        }
        for (k, &q) in self.quota.iter().enumerate() {
            arcs.push((1 + tasks + k, sink, q, 0));
        }
        Spec {
            nodes: sink + 1,
            arcs,
            source,
            sink,
            demand: self.demand,
        }
    }

    /// (most tasks placeable, cheapest placement of exactly `demand` tasks).
    fn brute_force(&self) -> (i64, Option<i64>) {
        let mut load = vec![0i64; self.quota.len()];
        let mut best = (0, None);
        self.place(0, 0, 0, &mut load, &mut best);
        best
    }

    fn place(
        &self,
        t: usize,
        placed: i64,
        cost: i64,
        load: &mut [i64],
        best: &mut (i64, Option<i64>),
    ) {
        if t == self.costs.len() {
            best.0 = best.0.max(placed);
            if placed == self.demand {
                best.1 = Some(best.1.map_or(cost, |b: i64| b.min(cost)));
            }
            return;
        }
        self.place(t + 1, placed, cost, load, best);
        for (k, c) in self.costs[t].iter().enumerate() {
            if let Some(c) = c {
                if load[k] < self.quota[k] {
                    load[k] += 1;
                    self.place(t + 1, placed + 1, cost + c, load, best);
                    load[k] -= 1;
                }
            }
        }
    }
}

fn check_assignment(a: &Assignment, by: Solver) {
    let spec = a.spec();
    let (most, cheapest) = a.brute_force();
    let (net, got) = spec.solve(by);
    let flow = flows(&net);
    match (got, cheapest) {
        (Ok(cost), Some(want)) => assert_eq!(cost, want, "{a:?}"),
        (Err(FlowError::Infeasible { reached, .. }), None) => {
            assert!(a.demand > most, "{a:?}");
            assert_eq!(reached, most, "{a:?}");
        }
        (got, want) => panic!("solver {got:?}, brute force {want:?}: {a:?}"),
    }
    assert_feasible(&spec, &flow, a.demand.min(most));
    // Every task goes to at most one client it may use.
    let tasks = a.costs.len();
    for t in 0..tasks {
        let out = net.flows_from(petgraph::graph::NodeIndex::new(1 + t));
        assert!(out.len() <= 1 && out.iter().all(|&(_, f)| f == 1), "{a:?}");
    }
}

fn random_assignment(rng: &mut impl Rng) -> Assignment {
    let tasks = rng.random_range(1..=6);
    let clients = rng.random_range(1..=3);
    let costs = (0..tasks)
        .map(|_| {
            (0..clients)
                .map(|_| (!rng.random_ratio(1, 6)).then(|| rng.random_range(0..=11)))
                .collect()
        })
        .collect();
    let quota = (0..clients)
        .map(|_| rng.random_range(0..=tasks as i64))
        .collect();
    let demand = if rng.random_bool(0.7) {
        tasks as i64
    } else {
        rng.random_range(0..=tasks as i64)
    };
    Assignment {
        costs,
        quota,
        demand,
    }
}

#[test]
fn assignments_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xa551_9e00);
    for _ in 0..5_000 {
        let a = random_assignment(&mut rng);
        for by in SOLVERS {
            check_assignment(&a, by);
        }
    }
}

/// A larger network without negative cycles but with negative arc costs:
/// cost = base + π(u) − π(v) for random potentials π and base ≥ 0 (every
/// cycle then costs the sum of its bases). Some draws keep raw random costs
/// instead, which usually hold a negative cycle.
fn random_large(rng: &mut impl Rng) -> Spec {
    let nodes = rng.random_range(10..=40);
    let pi: Vec<i64> = (0..nodes).map(|_| rng.random_range(-10..=10)).collect();
    let raw = rng.random_ratio(1, 8);
    let arcs = (0..rng.random_range(nodes..=8 * nodes))
        .map(|_| {
            let (u, v) = (rng.random_range(0..nodes), rng.random_range(0..nodes));
            let base = rng.random_range(0..=20);
            let cost = if raw {
                rng.random_range(-5..=20)
            } else {
                base + pi[u] - pi[v]
            };
            (u, v, rng.random_range(0..=12), cost)
        })
        .collect();
    let source = rng.random_range(0..nodes);
    Spec {
        nodes,
        arcs,
        source,
        sink: (source + rng.random_range(1..nodes)) % nodes,
        demand: rng.random_range(0..=60),
    }
}

fn check_large(spec: &Spec, by: Solver) {
    let (net, got) = spec.solve(by);
    let flow = flows(&net);
    if has_negative_cycle(spec.nodes, &residual(spec, &vec![0; spec.arcs.len()])) {
        assert_eq!(got, Err(FlowError::NegativeCycle), "{spec:?}");
        return;
    }
    let max = max_flow(spec, spec.demand);
    // Cost scaling stops at a maximum flow when the demand cannot be met.
    let cheapest = got.is_ok() || matches!(by, Solver::Paths);
    match got {
        Ok(cost) => {
            assert_eq!(max, spec.demand, "{spec:?}");
            assert_eq!(cost, cost_of(spec, &flow));
        }
        Err(FlowError::Infeasible { demand, reached }) => {
            assert_eq!((demand, reached), (spec.demand, max), "{spec:?}");
        }
        Err(e) => panic!("unexpected {e}: {spec:?}"),
    }
    assert_feasible(spec, &flow, max);
    if cheapest {
        assert!(
            !has_negative_cycle(spec.nodes, &residual(spec, &flow)),
            "not optimal: {spec:?} flows {flow:?}"
        );
        assert!(!net.residual_has_negative_cycle());
    }
    // Same network, same flow.
    assert_eq!(flows(&spec.solve(by).0), flow);
}

#[test]
fn larger_networks_carry_an_optimality_certificate() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1a29_e000);
    for _ in 0..1_000 {
        let spec = random_large(&mut rng);
        for by in SOLVERS {
            check_large(&spec, by);
        }
    }
}

/// KIP-925's `min_traffic` shape: every client keeps its current count
/// (client → sink capacity), so the flow only picks which tasks move; it
/// never costs more than leaving every task where it is.
#[test]
fn min_traffic_shape_keeps_counts_and_never_loses_to_staying_put() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x925);
    for _ in 0..20 {
        let tasks = rng.random_range(50..=300);
        let clients = rng.random_range(2..=12);
        let racks: Vec<u32> = (0..clients).map(|_| rng.random_range(0..3)).collect();
        let task_rack: Vec<u32> = (0..tasks).map(|_| rng.random_range(0..3)).collect();
        let owner: Vec<usize> = (0..tasks).map(|_| rng.random_range(0..clients)).collect();
        let cost = |t: usize, k: usize| {
            10 * i64::from(racks[k] != task_rack[t]) + i64::from(owner[t] != k)
        };
        let mut arcs = Vec::new();
        let (source, sink) = (0, 1 + tasks + clients);
        for t in 0..tasks {
            arcs.push((source, 1 + t, 1, 0));
        }
        for t in 0..tasks {
            for k in 0..clients {
                arcs.push((1 + t, 1 + tasks + k, 1, cost(t, k)));
            }
        }
        for k in 0..clients {
            let count = owner.iter().filter(|&&o| o == k).count() as i64;
            arcs.push((1 + tasks + k, sink, count, 0));
        }
        let spec = Spec {
            nodes: sink + 1,
            arcs,
            source,
            sink,
            demand: tasks as i64,
        };
        for by in SOLVERS {
            let (net, got) = spec.solve(by);
            let got = got.expect("the current assignment is a feasible flow");
            let stay: i64 = (0..tasks).map(|t| cost(t, owner[t])).sum();
            assert!(got <= stay);
            let flow = flows(&net);
            assert_feasible(&spec, &flow, tasks as i64);
            assert!(!net.residual_has_negative_cycle());
            // Client → sink arcs saturated: every client keeps its count.
            for (&(_, _, cap, _), &f) in spec.arcs.iter().zip(&flow).rev().take(clients) {
                assert_eq!(f, cap);
            }
        }
    }
}

/// Wide costs (up to 10⁶, so cost scaling runs many refines) on bipartite
/// networks shaped like `optimal`'s (tasks with a few cheap clients and a
/// hub at their full cost, clients with lower and upper bounds): both
/// solvers agree on the cost, and each flow is certified optimal.
fn check_wide(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let tasks: usize = rng.random_range(1..=60);
    let clients = rng.random_range(1..=8);
    let (source, hub, spare, sink) = (
        0,
        1 + tasks + clients,
        2 + tasks + clients,
        3 + tasks + clients,
    );
    let mut arcs = Vec::new();
    for t in 0..tasks {
        let full = rng.random_range(0..=1_000_000);
        arcs.push((source, 1 + t, 1, 0));
        arcs.push((1 + t, hub, 1, full));
        for k in 0..clients {
            if rng.random_ratio(1, 3) {
                arcs.push((1 + t, 1 + tasks + k, 1, rng.random_range(0..=full)));
            }
        }
    }
    let mut lower = 0;
    for k in 0..clients {
        let lo = rng.random_range(0..=tasks / clients);
        let hi = lo + rng.random_range(0..=3);
        lower += lo;
        arcs.push((hub, 1 + tasks + k, hi as i64, 0));
        arcs.push((1 + tasks + k, sink, lo as i64, 0));
        arcs.push((1 + tasks + k, spare, (hi - lo) as i64, 0));
    }
    arcs.push((spare, sink, tasks.saturating_sub(lower) as i64, 0));
    let spec = Spec {
        nodes: sink + 1,
        arcs,
        source,
        sink,
        demand: tasks as i64,
    };
    let (paths_net, paths) = spec.solve(Solver::Paths);
    let (scaling_net, scaling) = spec.solve(Solver::Scaling);
    match (paths, scaling) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{spec:?}");
            assert!(!scaling_net.residual_has_negative_cycle());
            assert_feasible(&spec, &flows(&scaling_net), spec.demand);
        }
        (
            Err(FlowError::Infeasible { reached: a, .. }),
            Err(FlowError::Infeasible { reached: b, .. }),
        ) => {
            assert_eq!(a, b, "{spec:?}");
        }
        (a, b) => panic!("paths {a:?}, scaling {b:?}: {spec:?}"),
    }
    assert!(!paths_net.residual_has_negative_cycle());
}

#[test]
fn wide_costs_agree_between_solvers() {
    for seed in 0..300 {
        check_wide(seed);
    }
}

/// Costs too large to scale within `i64`: cost scaling hands over to
/// successive shortest paths, same answer.
#[test]
fn huge_costs_fall_back_to_paths() {
    let spec = Spec {
        nodes: 3,
        arcs: vec![(0, 1, 2, 1 << 57), (1, 2, 2, 1 << 57), (0, 2, 1, 1 << 59)],
        source: 0,
        sink: 2,
        demand: 3,
    };
    let (_, paths) = spec.solve(Solver::Paths);
    let (_, scaling) = spec.solve(Solver::Scaling);
    assert_eq!(paths, Ok(1 << 60));
    assert_eq!(scaling, paths);
}

proptest! {
    #![proptest_config(support::proptest_config())]

    /// Tiny networks: optimal cost, max flow and negative cycles as brute
    /// force finds them.
    #[test]
    fn tiny_network_property(spec in tiny_spec()) {
        for by in SOLVERS {
            check_tiny(&spec, by);
        }
    }

    /// Assignment networks as enumeration of assignments finds them.
    #[test]
    fn assignment_property(seed in any::<u64>()) {
        let a = random_assignment(&mut ChaCha8Rng::seed_from_u64(seed));
        for by in SOLVERS {
            check_assignment(&a, by);
        }
    }

    /// `optimal`-shaped networks with wide costs: both solvers agree.
    #[test]
    fn wide_cost_property(seed in any::<u64>()) {
        check_wide(seed);
    }

    /// Larger networks: feasible, certified optimal, max flow when short.
    #[test]
    fn larger_network_property(seed in any::<u64>()) {
        let spec = random_large(&mut ChaCha8Rng::seed_from_u64(seed));
        for by in SOLVERS {
            check_large(&spec, by);
        }
    }
}
