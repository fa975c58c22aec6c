//! Cost scaling (Goldberg–Tarjan push–relabel): the solver behind
//! [`super::FlowNetwork::min_cost_flow_by_scaling`].
//!
//! # Algorithm
//! 1. **A feasible flow.** Dinic's maximum flow from the source, capped at
//!    the demand. Fewer units than the demand: [`Outcome::Infeasible`] (the
//!    costs are not looked at).
//! 2. **Exact integer costs.** Every cost is multiplied by `S = n + 1` (`n`
//!    nodes). A flow is *ε-optimal* for node prices `p` when every residual
//!    arc has reduced cost `c(u,v) + p(u) − p(v) ≥ −ε`. At `ε = 1` on the
//!    scaled costs, a simple residual cycle (at most `n` arcs) costs at
//!    least `−n > −S`, yet its cost is a multiple of `S`: it is at least 0,
//!    so the flow has no negative residual cycle and is a minimum-cost flow
//!    — exact, not approximate.
//! 3. **Refine**, for `ε = C·S/α, C·S/α², …, 1` (`C` the largest `|cost|`,
//!    `α = 16`; the zero prices make any flow `C·S`-optimal): saturate every
//!    residual arc of negative reduced cost, which leaves excesses and
//!    deficits but makes the pseudo-flow 0-optimal; then discharge the nodes
//!    with excess in FIFO order — push along *admissible* arcs (residual,
//!    reduced cost below 0), and when a node has none, relabel it: lower its
//!    price to `max (p(v) − c(u,v)) − ε` over its residual arcs, which makes
//!    at least one admissible. Each refine ends with a feasible ε-optimal
//!    flow (the flow of step 1 proves a feasible flow exists, so every excess
//!    can reach a deficit).
//! 4. **Global price updates** (Goldberg, "An efficient implementation of a
//!    scaling minimum-cost flow algorithm", 1997): at the start of every
//!    refine, and again whenever relabels have scanned as many arcs as the
//!    network has, every price is lowered at once by what relabels one at a
//!    time would have reached ([`Refine::global_update`]).
//!
//! Arcs are stored by tail node, so a node's scan reads one stretch of
//! memory. Both cut the time on `optimal`'s largest networks several fold
//! (`benches/README.md`).
//!
//! # Complexity
//! `⌈log_α(C·S)⌉` refines, each O(n²·m) in the worst case (Goldberg and
//! Tarjan, "Finding minimum-cost circulations by successive approximation",
//! 1990; a global update is O(m) and is paid for by the relabel scans before
//! it) — O(n²·m·log(n·C)) overall, with no dependence on the number of
//! distinct path costs, which is what bounds successive shortest paths. In
//! practice a refine does a few pushes and relabels per arc.
//!
//! # Integer range
//! Prices only fall, by at most `3·n·ε` in a refine, so they stay within
//! `4·n·C·S` of 0 over all refines (`Σ ε ≤ C·S·α/(α−1)`), and reduced costs
//! within `9·n·C·S`. [`solve`] runs only when `16·n·C·S ≤ i64::MAX`, else it
//! reports [`Outcome::TooCostly`] and the caller uses successive shortest
//! paths, whose guard is weaker. The refines also check every price they
//! lower against a floor of `i64::MIN / 4` and give up the same way should
//! one fall below it.
//!
//! # Determinism
//! Nodes with excess are discharged first-in first-out (seeded in node
//! order), arcs scanned in the order they were added: the same network gives
//! the same flow every time.

use std::collections::VecDeque;

use super::{packed, Residual, UNSEEN};

/// The divisor of ε between refines.
const ALPHA: i64 = 16;

/// What [`solve`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The residual network holds a minimum-cost flow of the demanded value.
    Solved,
    /// Only this many units can reach the sink, fewer than demanded; the
    /// residual network holds a maximum flow, not necessarily a cheapest.
    Infeasible(i64),
    /// The scaled costs could overflow `i64`; nothing was changed.
    TooCostly,
}

/// Sends `demand` units from `s` to `t` at minimum cost through `r`, whose
/// residual capacities must be those of the zero flow; on
/// [`Outcome::Solved`], `r`'s capacities hold that flow.
pub(super) fn solve(r: &mut Residual, s: usize, t: usize, demand: i64) -> Outcome {
    let n = r.nodes();
    let largest = r.cost.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0);
    let scale = n as u128 + 1;
    if 16 * (n as u128) * u128::from(largest) * scale > i64::MAX as u128 {
        return Outcome::TooCostly;
    }
    let scale = i64::try_from(scale).expect("within the guard");
    let mut g = Csr::new(r, scale);
    let reached = g.max_flow(s, t, demand);
    if reached < demand {
        g.write_back(r);
        return Outcome::Infeasible(reached);
    }
    if largest > 0 {
        let mut refine = Refine::new(n);
        let mut eps = i64::try_from(largest).expect("within the guard") * scale;
        loop {
            eps = (eps / ALPHA).max(1);
            if !refine.run(&mut g, eps) {
                return Outcome::TooCostly;
            }
            if eps == 1 {
                break;
            }
        }
    }
    g.write_back(r);
    Outcome::Solved
}

/// One residual arc, stored with the other arcs leaving its tail.
#[derive(Debug, Clone, Copy)]
struct Arc {
    /// Its head.
    to: u32,
    /// Where its reverse is stored.
    rev: u32,
    /// Residual capacity.
    cap: i64,
    /// Cost, scaled.
    cost: i64,
}

/// The residual network with each node's arcs stored together, so that a
/// node's scan reads one stretch of memory.
struct Csr {
    /// Arcs leaving node `u`: `arcs[first[u]..first[u + 1]]`.
    first: Vec<usize>,
    arcs: Vec<Arc>,
    /// Where residual arc `a` of the [`Residual`] is stored.
    at: Vec<u32>,
}

impl Csr {
    /// `r`'s arcs, in its order within each node, costs times `scale`.
    fn new(r: &Residual, scale: i64) -> Csr {
        let mut at = vec![0u32; r.head.len()];
        for (i, &a) in r.adj.iter().enumerate() {
            at[a as usize] = packed(i);
        }
        let arcs = r
            .adj
            .iter()
            .map(|&a| {
                let a = a as usize;
                Arc {
                    to: r.head[a],
                    rev: at[a ^ 1],
                    cap: r.cap[a],
                    cost: r.cost[a] * scale,
                }
            })
            .collect();
        Csr {
            first: r.first.clone(),
            arcs,
            at,
        }
    }

    fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    /// Copies the residual capacities (the flow) back into `r`.
    fn write_back(&self, r: &mut Residual) {
        for (a, &at) in self.at.iter().enumerate() {
            r.cap[a] = self.arcs[at as usize].cap;
        }
    }

    /// Moves `d` units along the arc stored at `i`.
    #[inline]
    fn push(&mut self, i: usize, d: i64) {
        self.arcs[i].cap -= d;
        let rev = self.arcs[i].rev as usize;
        self.arcs[rev].cap += d;
    }

    /// Dinic's algorithm: pushes up to `limit` units from `s` to `t`;
    /// returns the units pushed.
    fn max_flow(&mut self, s: usize, t: usize, limit: i64) -> i64 {
        let n = self.nodes();
        let mut level = vec![UNSEEN; n];
        let mut next = vec![0usize; n];
        let mut queue = VecDeque::new();
        let mut path: Vec<u32> = Vec::new();
        let mut pushed = 0;
        while pushed < limit && s != t {
            level.fill(UNSEEN);
            level[s] = 0;
            queue.clear();
            queue.push_back(s);
            while let Some(u) = queue.pop_front() {
                for arc in &self.arcs[self.first[u]..self.first[u + 1]] {
                    let v = arc.to as usize;
                    if arc.cap > 0 && level[v] == UNSEEN {
                        level[v] = level[u] + 1;
                        queue.push_back(v);
                    }
                }
            }
            if level[t] == UNSEEN {
                break;
            }
            next.copy_from_slice(&self.first[..n]);
            // Depth-first augmenting paths in the level graph, each node's
            // scan position kept between paths.
            path.clear();
            let mut u = s;
            while pushed < limit {
                if u == t {
                    let f = path
                        .iter()
                        .map(|&i| self.arcs[i as usize].cap)
                        .fold(limit - pushed, i64::min);
                    for &i in &path {
                        self.push(i as usize, f);
                    }
                    pushed += f;
                    path.clear();
                    u = s;
                    continue;
                }
                let end = self.first[u + 1];
                let mut advanced = false;
                while next[u] < end {
                    let arc = self.arcs[next[u]];
                    let v = arc.to as usize;
                    if arc.cap > 0 && level[v] != UNSEEN && level[v] == level[u] + 1 {
                        path.push(packed(next[u]));
                        u = v;
                        advanced = true;
                        break;
                    }
                    next[u] += 1;
                }
                if !advanced {
                    level[u] = UNSEEN;
                    match path.pop() {
                        None => break,
                        Some(i) => {
                            let back = self.arcs[i as usize].rev as usize;
                            u = self.arcs[back].to as usize;
                            next[u] += 1;
                        }
                    }
                }
            }
        }
        pushed
    }
}

/// The state of the refines: prices, excesses, scan positions, the queue,
/// and the global update's buffers.
struct Refine {
    price: Vec<i64>,
    excess: Vec<i64>,
    current: Vec<usize>,
    queue: VecDeque<u32>,
    /// Arcs scanned by relabels since the last global update.
    scanned: usize,
    rank: Vec<usize>,
    settled: Vec<bool>,
    buckets: Vec<Vec<u32>>,
    /// Whether a price fell below [`PRICE_FLOOR`].
    low: bool,
}

/// The lowest price the refines accept. Above it, with costs within the
/// guard of [`solve`], no sum of a cost and two prices can overflow.
const PRICE_FLOOR: i64 = i64::MIN / 4;

impl Refine {
    fn new(n: usize) -> Refine {
        Refine {
            price: vec![0; n],
            excess: vec![0; n],
            current: vec![0; n],
            queue: VecDeque::new(),
            scanned: 0,
            rank: vec![usize::MAX; n],
            settled: vec![false; n],
            buckets: Vec::new(),
            low: false,
        }
    }

    /// Turns the feasible flow in `g` into a feasible ε-optimal one; false
    /// (and `g` left unfinished) if a price fell below [`PRICE_FLOOR`],
    /// which the guard in [`solve`] rules out but is checked all the same.
    fn run(&mut self, g: &mut Csr, eps: i64) -> bool {
        let n = g.nodes();
        for u in 0..n {
            let pu = self.price[u];
            for i in g.first[u]..g.first[u + 1] {
                let arc = g.arcs[i];
                if arc.cap > 0 {
                    let v = arc.to as usize;
                    if arc.cost + pu - self.price[v] < 0 {
                        g.push(i, arc.cap);
                        self.excess[u] -= arc.cap;
                        self.excess[v] += arc.cap;
                    }
                }
            }
        }
        self.current.copy_from_slice(&g.first[..n]);
        self.queue.clear();
        for u in 0..n {
            if self.excess[u] > 0 {
                self.queue.push_back(packed(u));
            }
        }
        self.global_update(g, eps);
        while let Some(u) = self.queue.pop_front() {
            if self.scanned > g.arcs.len() {
                self.global_update(g, eps);
            }
            self.discharge(g, u as usize, eps);
            if self.low {
                return false;
            }
        }
        !self.low
    }

    /// Goldberg's global price update: lowers every price by `ε·d(v)`, where
    /// `d(v)` is the fewest ε-relabels after which `v` has an admissible path
    /// to a node with a deficit — a shortest-path distance to the deficits
    /// over residual arcs of length `⌊c_p(v,w)/ε⌋ + 1` (0 for an admissible
    /// arc), found with buckets and capped at the distance where the last
    /// node with excess is reached. A residual arc `(v,w)` has
    /// `d(v) ≤ d(w) + ⌊c_p(v,w)/ε⌋ + 1`, so its reduced cost stays at least
    /// `−ε`: the update keeps ε-optimality and saves the relabels one by one.
    fn global_update(&mut self, g: &mut Csr, eps: i64) {
        self.scanned = 0;
        let n = g.nodes();
        self.rank.fill(usize::MAX);
        self.settled.fill(false);
        for b in &mut self.buckets {
            b.clear();
        }
        if self.buckets.is_empty() {
            self.buckets.push(Vec::new());
        }
        let mut left: i64 = 0;
        for u in 0..n {
            if self.excess[u] < 0 {
                self.rank[u] = 0;
                self.buckets[0].push(packed(u));
            } else {
                left += self.excess[u];
            }
        }
        let mut r = 0;
        'buckets: while left > 0 && r < self.buckets.len() {
            while let Some(w) = self.buckets[r].pop() {
                let w = w as usize;
                if self.settled[w] || self.rank[w] != r {
                    continue;
                }
                self.settled[w] = true;
                left -= self.excess[w].max(0);
                if left <= 0 {
                    break 'buckets;
                }
                let pw = self.price[w];
                for i in g.first[w]..g.first[w + 1] {
                    // The residual arc v → w is the reverse of w → v.
                    let back = g.arcs[g.arcs[i].rev as usize];
                    let v = g.arcs[i].to as usize;
                    if back.cap <= 0 || self.settled[v] {
                        continue;
                    }
                    let reduced = back.cost + self.price[v] - pw;
                    let Ok(len) = usize::try_from(reduced.div_euclid(eps) + 1) else {
                        continue;
                    };
                    let k = r + len;
                    if k < self.rank[v] && k <= n {
                        self.rank[v] = k;
                        if self.buckets.len() <= k {
                            self.buckets.resize_with(k + 1, Vec::new);
                        }
                        self.buckets[k].push(packed(v));
                    }
                }
            }
            r += 1;
        }
        for u in 0..n {
            let d = self.rank[u].min(r);
            if d > 0 {
                let drop = eps.saturating_mul(i64::try_from(d).expect("at most the node count"));
                self.price[u] = self.price[u].saturating_sub(drop);
                self.low |= self.price[u] < PRICE_FLOOR;
            }
        }
        self.current.copy_from_slice(&g.first[..n]);
    }

    /// Pushes `u`'s excess along admissible arcs, relabelling `u` whenever
    /// it has none, until the excess is gone.
    fn discharge(&mut self, g: &mut Csr, u: usize, eps: i64) {
        let end = g.first[u + 1];
        while self.excess[u] > 0 {
            let pu = self.price[u];
            let mut i = self.current[u];
            while i < end {
                let arc = g.arcs[i];
                if arc.cap > 0 {
                    let v = arc.to as usize;
                    if arc.cost + pu - self.price[v] < 0 {
                        let d = arc.cap.min(self.excess[u]);
                        g.push(i, d);
                        self.excess[u] -= d;
                        let before = self.excess[v];
                        self.excess[v] += d;
                        if before <= 0 && self.excess[v] > 0 {
                            self.queue.push_back(packed(v));
                        }
                        if self.excess[u] == 0 {
                            break;
                        }
                    }
                }
                i += 1;
            }
            self.current[u] = i;
            if self.excess[u] > 0 {
                self.relabel(g, u, eps);
            }
        }
    }

    /// Lowers `u`'s price so that its cheapest residual arc has reduced cost
    /// `−ε`, and restarts its scan.
    fn relabel(&mut self, g: &Csr, u: usize, eps: i64) {
        let mut best = i64::MIN;
        for arc in &g.arcs[g.first[u]..g.first[u + 1]] {
            if arc.cap > 0 {
                best = best.max(self.price[arc.to as usize] - arc.cost);
            }
        }
        self.scanned += g.first[u + 1] - g.first[u];
        // A node with excess always has a residual arc: its excess came in
        // along one, whose reverse has capacity.
        debug_assert!(best > i64::MIN, "a node with excess has a residual arc");
        self.price[u] = best - eps;
        self.low |= self.price[u] < PRICE_FLOOR;
        self.current[u] = g.first[u];
    }
}
