//! Exact minimum-cost flow over a petgraph network, by either of two
//! algorithms: successive shortest paths ([`FlowNetwork::min_cost_flow`],
//! below) or cost scaling ([`FlowNetwork::min_cost_flow_by_scaling`], the
//! `scaling` module). Both give a minimum-cost flow; where several flows
//! cost the same they may pick different ones, each deterministically.
//! Successive shortest paths needs a round per distinct path cost, so it is
//! fast when costs take few values (KIP-925's networks) and slow when they
//! are spread (`optimal`'s restore costs at scale); cost scaling's rounds
//! grow with the logarithm of the largest cost instead.
//!
//! # Algorithm
//! Successive shortest paths with node potentials (the primal–dual form):
//!
//! 1. Bellman–Ford once, from a virtual node joined to every node by a
//!    0-cost arc, over the arcs with capacity. That gives every node a
//!    potential under which all reduced costs are non-negative (so arcs may
//!    have negative costs), and it finds a negative-cost cycle anywhere in
//!    the network — with one, the zero flow is not optimal for any demand
//!    and [`FlowError::NegativeCycle`] is returned.
//! 2. Repeat while fewer than `demand` units have been sent: Dijkstra on
//!    reduced costs from the source, stopping when the sink is settled; add
//!    the distances (capped at the sink's) to the potentials; then push a
//!    maximum flow, capped at the units still to send, through the arcs
//!    whose reduced cost is now 0 — every cheapest path at once — with
//!    Dinic's blocking flows. Each round strictly lengthens the cheapest
//!    path, so there are at most as many rounds as distinct marginal costs
//!    (about a dozen in KIP-925 assignment networks, whose costs are small).
//!
//! Integer capacities, costs and flows; the answer is exact. Costs are
//! `i64` and no overflow checks are made: keep `|cost| × node count ×
//! total capacity` well below 2⁶³.
//!
//! Deterministic: Dijkstra breaks ties by node index, and the blocking flow
//! scans each node's arcs in the order they were added, so the same network
//! gives the same flow every time.
//!
//! # Complexity
//! O(V·E) for the potentials (one O(E) pass when no cost is negative), then
//! per round O(E log V) for Dijkstra plus a blocking flow (O(E·√V) for the
//! unit-capacity task arcs of an assignment network). Kafka's KIP-925
//! solver cancels cycles, O(E²·M·U) — quadratic in tasks × clients.

#![warn(clippy::cast_possible_truncation)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

mod scaling;
#[cfg(test)]
mod tests;

/// One arc's data: capacity, cost per unit, and the flow the solver found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arc {
    /// Units the arc can carry.
    pub capacity: i64,
    /// Cost per unit.
    pub cost: i64,
    /// Units carried after solving.
    pub flow: i64,
}

/// Why a flow could not be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlowError {
    /// Fewer than the demanded units can reach the sink.
    #[error("only {reached} of {demand} units of flow can reach the sink")]
    Infeasible {
        /// Units demanded.
        demand: i64,
        /// Units that got through.
        reached: i64,
    },
    /// Arcs with capacity form a cycle of negative total cost.
    #[error("the network has a negative-cost cycle")]
    NegativeCycle,
}

/// A flow network: nodes, arcs with capacities and costs.
#[derive(Debug, Clone, Default)]
pub struct FlowNetwork {
    graph: DiGraph<(), Arc>,
}

impl FlowNetwork {
    /// An empty network.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a node; nodes are numbered from 0 in order of addition.
    pub fn add_node(&mut self) -> NodeIndex {
        self.graph.add_node(())
    }

    /// Adds an arc; its flow starts at 0. Parallel arcs and loops are
    /// allowed.
    ///
    /// # Panics
    /// If `capacity` is negative (the zero flow would not fit).
    pub fn add_arc(
        &mut self,
        from: NodeIndex,
        to: NodeIndex,
        capacity: i64,
        cost: i64,
    ) -> EdgeIndex {
        assert!(
            capacity >= 0,
            "arc capacity must be non-negative, got {capacity}"
        );
        self.graph.add_edge(
            from,
            to,
            Arc {
                capacity,
                cost,
                flow: 0,
            },
        )
    }

    /// The arc's data (its flow after [`FlowNetwork::min_cost_flow`]).
    pub fn arc(&self, e: EdgeIndex) -> Arc {
        self.graph[e]
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// The number of arcs; arc indices run from 0 to this, exclusive.
    pub fn arc_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// Every arc in index order: tail, head and data.
    pub fn arcs(&self) -> impl Iterator<Item = (NodeIndex, NodeIndex, Arc)> + '_ {
        self.graph
            .edge_references()
            .map(|e| (e.source(), e.target(), *e.weight()))
    }

    /// The arcs leaving `node` that carry flow, with their flows, in arc order.
    pub fn flows_from(&self, node: NodeIndex) -> Vec<(NodeIndex, i64)> {
        let mut out: Vec<(EdgeIndex, NodeIndex, i64)> = self
            .graph
            .edges_directed(node, Direction::Outgoing)
            .filter(|e| e.weight().flow > 0)
            .map(|e| (e.id(), e.target(), e.weight().flow))
            .collect();
        out.sort_by_key(|&(e, _, _)| e);
        out.into_iter().map(|(_, n, f)| (n, f)).collect()
    }

    /// Σ flow × cost over all arcs, for the flows currently stored.
    pub fn total_cost(&self) -> i64 {
        self.graph.edge_weights().map(|a| a.flow * a.cost).sum()
    }

    /// Whether the residual network of the stored flows (arc `u→v` with
    /// `capacity − flow` units left at `cost`, and `v→u` with `flow` units
    /// at `−cost`) has a cycle of negative cost. A flow that fits the
    /// capacities and conserves flow is a minimum-cost flow for its value
    /// exactly when it has none: the optimality certificate.
    pub fn residual_has_negative_cycle(&self) -> bool {
        Residual::new(&self.graph).potentials().is_err()
    }

    /// Sends `demand` units from `source` to `sink` at minimum total cost
    /// (starting from zero flow, and with every arc's flow overwritten);
    /// returns that cost.
    ///
    /// A `demand` of 0 or less, or `source == sink`, sends nothing: the zero
    /// flow, cost 0 (once there is no negative cycle, nothing is cheaper).
    ///
    /// # Errors
    /// [`FlowError::NegativeCycle`] if arcs with capacity form a cycle of
    /// negative cost anywhere in the network (the flows are left at 0);
    /// [`FlowError::Infeasible`] if fewer than `demand` units can reach the
    /// sink — the arcs then hold a maximum flow of minimum cost, `reached`
    /// units.
    pub fn min_cost_flow(
        &mut self,
        source: NodeIndex,
        sink: NodeIndex,
        demand: i64,
    ) -> Result<i64, FlowError> {
        let (mut residual, mut potential) = self.residual()?;
        let (s, t) = (source.index(), sink.index());
        if s == t {
            return Ok(0);
        }
        let mut sent = 0;
        let mut work = Work::new(residual.nodes());
        while sent < demand && residual.dijkstra(s, t, &mut potential, &mut work) {
            sent += residual.blocking_flows(s, t, &potential, demand - sent, &mut work);
        }
        self.keep_flows(&residual);
        if sent < demand {
            return Err(FlowError::Infeasible {
                demand,
                reached: sent,
            });
        }
        Ok(self.total_cost())
    }
    /// Like [`FlowNetwork::min_cost_flow`] — same arguments, same cost,
    /// same errors — but solved by cost scaling (push–relabel, `scaling`
    /// module): O(n²·m·log(n·C)) for `n` nodes, `m` arcs and largest
    /// `|cost|` `C`, however many distinct path costs there are, where
    /// successive shortest paths need one round per distinct path cost.
    /// Among several minimum-cost flows it may pick another one than
    /// [`FlowNetwork::min_cost_flow`] does (deterministically).
    ///
    /// When the costs are so large that the scaled costs could overflow
    /// (`16·n·(n+1)·C > i64::MAX`), it is [`FlowNetwork::min_cost_flow`].
    ///
    /// # Errors
    /// As [`FlowNetwork::min_cost_flow`], except that with
    /// [`FlowError::Infeasible`] the arcs hold *a* maximum flow, not
    /// necessarily a cheapest one (the costs are not looked at then).
    pub fn min_cost_flow_by_scaling(
        &mut self,
        source: NodeIndex,
        sink: NodeIndex,
        demand: i64,
    ) -> Result<i64, FlowError> {
        let (mut residual, _) = self.residual()?;
        let (s, t) = (source.index(), sink.index());
        if s == t || demand <= 0 {
            return Ok(0);
        }
        let outcome = scaling::solve(&mut residual, s, t, demand);
        if outcome == scaling::Outcome::TooCostly {
            return self.min_cost_flow(source, sink, demand);
        }
        self.keep_flows(&residual);
        match outcome {
            scaling::Outcome::Infeasible(reached) => Err(FlowError::Infeasible { demand, reached }),
            _ => Ok(self.total_cost()),
        }
    }
}

impl FlowNetwork {
    /// Every flow back to 0, and the residual network with feasible
    /// potentials: what both solvers start from.
    fn residual(&mut self) -> Result<(Residual, Vec<i64>), FlowError> {
        for a in self.graph.edge_weights_mut() {
            a.flow = 0;
        }
        let residual = Residual::new(&self.graph);
        let potential = residual.potentials()?;
        Ok((residual, potential))
    }

    /// The arcs take the flows a solver left in `residual` (a reverse
    /// residual arc's capacity is its forward arc's flow).
    fn keep_flows(&mut self, residual: &Residual) {
        for (i, a) in self.graph.edge_weights_mut().enumerate() {
            a.flow = residual.cap[2 * i + 1];
        }
    }
}

/// The residual network in compressed adjacency form: arc `2i` is arc `i`
/// forward, `2i + 1` its reverse.
struct Residual {
    head: Vec<u32>,
    cap: Vec<i64>,
    cost: Vec<i64>,
    /// Residual arcs leaving node `u`: `adj[first[u]..first[u + 1]]`, in arc order.
    first: Vec<usize>,
    adj: Vec<u32>,
}

/// Buffers reused across rounds.
struct Work {
    dist: Vec<i64>,
    settled: Vec<bool>,
    heap: BinaryHeap<Reverse<(i64, u32)>>,
    level: Vec<u32>,
    queue: VecDeque<u32>,
    next: Vec<usize>,
    path: Vec<u32>,
}

const UNSEEN: u32 = u32::MAX;

/// A node or residual-arc number as the solver stores it. Nodes are below
/// `u32::MAX` (petgraph's default `u32` indices) and residual arcs too
/// ([`Residual::new`] checks), so the conversion cannot fail.
#[inline]
fn packed(i: usize) -> u32 {
    u32::try_from(i).expect("node and arc numbers fit petgraph's u32 indices")
}

impl Work {
    fn new(n: usize) -> Work {
        Work {
            dist: vec![i64::MAX; n],
            settled: vec![false; n],
            heap: BinaryHeap::new(),
            level: vec![UNSEEN; n],
            queue: VecDeque::new(),
            next: vec![0; n],
            path: Vec::new(),
        }
    }
}

impl Residual {
    /// The residual network of the graph's stored flows.
    fn new(graph: &DiGraph<(), Arc>) -> Residual {
        let n = graph.node_count();
        let m = graph.edge_count();
        assert!(2 * m < u32::MAX as usize, "too many arcs: {m}");
        let mut head = Vec::with_capacity(2 * m);
        let mut cap = Vec::with_capacity(2 * m);
        let mut cost = Vec::with_capacity(2 * m);
        let mut first = vec![0usize; n + 1];
        for e in graph.edge_references() {
            let a = e.weight();
            head.push(packed(e.target().index()));
            head.push(packed(e.source().index()));
            cap.push(a.capacity - a.flow);
            cap.push(a.flow);
            cost.push(a.cost);
            cost.push(-a.cost);
            first[e.source().index() + 1] += 1;
            first[e.target().index() + 1] += 1;
        }
        for u in 0..n {
            first[u + 1] += first[u];
        }
        let mut fill = first.clone();
        let mut adj = vec![0u32; 2 * m];
        for a in 0..2 * m {
            let tail = head[a ^ 1] as usize;
            adj[fill[tail]] = packed(a);
            fill[tail] += 1;
        }
        Residual {
            head,
            cap,
            cost,
            first,
            adj,
        }
    }

    fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    fn arcs(&self, u: usize) -> &[u32] {
        &self.adj[self.first[u]..self.first[u + 1]]
    }

    /// Shortest distances over arcs with capacity from a virtual node with a
    /// 0-cost arc to every node: potentials with non-negative reduced costs.
    /// A change in the n-th pass means a negative cycle.
    fn potentials(&self) -> Result<Vec<i64>, FlowError> {
        let n = self.nodes();
        let mut dist = vec![0i64; n];
        for pass in 1..=n {
            let mut changed = false;
            for u in 0..n {
                let du = dist[u];
                for &a in self.arcs(u) {
                    let a = a as usize;
                    if self.cap[a] > 0 {
                        let v = self.head[a] as usize;
                        let nd = du + self.cost[a];
                        if nd < dist[v] {
                            dist[v] = nd;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
            if pass == n {
                return Err(FlowError::NegativeCycle);
            }
        }
        Ok(dist)
    }

    /// Dijkstra on reduced costs from `s` until `t` is settled; returns
    /// false if `t` is unreachable. Otherwise adds to every potential the
    /// node's distance, capped at `t`'s (nodes not settled get `t`'s), which
    /// keeps every reduced cost non-negative and makes those on cheapest
    /// paths to `t` zero.
    fn dijkstra(&self, s: usize, t: usize, potential: &mut [i64], w: &mut Work) -> bool {
        w.dist.fill(i64::MAX);
        w.settled.fill(false);
        w.heap.clear();
        w.dist[s] = 0;
        w.heap.push(Reverse((0, packed(s))));
        let mut reached = None;
        while let Some(Reverse((d, u))) = w.heap.pop() {
            let u = u as usize;
            if w.settled[u] {
                continue;
            }
            w.settled[u] = true;
            if u == t {
                reached = Some(d);
                break;
            }
            let pu = potential[u];
            for &a in self.arcs(u) {
                let a = a as usize;
                if self.cap[a] <= 0 {
                    continue;
                }
                let v = self.head[a] as usize;
                if w.settled[v] {
                    continue;
                }
                let nd = d + self.cost[a] + pu - potential[v];
                if nd < w.dist[v] {
                    w.dist[v] = nd;
                    w.heap.push(Reverse((nd, packed(v))));
                }
            }
        }
        let Some(dt) = reached else { return false };
        for (v, p) in potential.iter_mut().enumerate() {
            *p += if w.settled[v] { w.dist[v] } else { dt };
        }
        true
    }

    /// Whether residual arc `a` has capacity and reduced cost 0.
    fn admissible(&self, a: usize, potential: &[i64]) -> bool {
        self.cap[a] > 0
            && self.cost[a] + potential[self.head[a ^ 1] as usize]
                == potential[self.head[a] as usize]
    }

    /// Dinic's algorithm on the admissible arcs: pushes up to `limit` units
    /// from `s` to `t`, as many as they carry; returns the units pushed.
    fn blocking_flows(
        &mut self,
        s: usize,
        t: usize,
        potential: &[i64],
        limit: i64,
        w: &mut Work,
    ) -> i64 {
        let mut pushed = 0;
        while pushed < limit && self.levels(s, t, potential, w) {
            w.next.copy_from_slice(&self.first[..self.nodes()]);
            loop {
                let f = self.augment(s, t, potential, limit - pushed, w);
                if f == 0 {
                    break;
                }
                pushed += f;
                if pushed == limit {
                    break;
                }
            }
        }
        pushed
    }

    /// Breadth-first levels from `s` over admissible arcs; whether `t` got one.
    fn levels(&self, s: usize, t: usize, potential: &[i64], w: &mut Work) -> bool {
        w.level.fill(UNSEEN);
        w.queue.clear();
        w.level[s] = 0;
        w.queue.push_back(packed(s));
        while let Some(u) = w.queue.pop_front() {
            let u = u as usize;
            if w.level[t] != UNSEEN && w.level[u] >= w.level[t] {
                break;
            }
            for &a in self.arcs(u) {
                let a = a as usize;
                let v = self.head[a] as usize;
                if w.level[v] == UNSEEN && self.admissible(a, potential) {
                    w.level[v] = w.level[u] + 1;
                    w.queue.push_back(packed(v));
                }
            }
        }
        w.level[t] != UNSEEN
    }

    /// One augmenting path in the level graph, found depth-first with each
    /// node's scan position kept between calls; pushes its bottleneck (at
    /// most `limit`) and returns it, or 0 when no path is left.
    fn augment(&mut self, s: usize, t: usize, potential: &[i64], limit: i64, w: &mut Work) -> i64 {
        w.path.clear();
        let mut u = s;
        loop {
            if u == t {
                let mut f = limit;
                for &a in &w.path {
                    f = f.min(self.cap[a as usize]);
                }
                for &a in &w.path {
                    self.cap[a as usize] -= f;
                    self.cap[a as usize ^ 1] += f;
                }
                return f;
            }
            let end = self.first[u + 1];
            let mut advanced = false;
            while w.next[u] < end {
                let a = self.adj[w.next[u]] as usize;
                let v = self.head[a] as usize;
                if w.level[v] != UNSEEN
                    && w.level[v] == w.level[u] + 1
                    && self.admissible(a, potential)
                {
                    w.path.push(packed(a));
                    u = v;
                    advanced = true;
                    break;
                }
                w.next[u] += 1;
            }
            if !advanced {
                // Dead end: nothing more goes through `u` in this level graph.
                w.level[u] = UNSEEN;
                match w.path.pop() {
                    None => return 0,
                    Some(a) => {
                        u = self.head[a as usize ^ 1] as usize;
                        w.next[u] += 1;
                    }
                }
            }
        }
    }
}
