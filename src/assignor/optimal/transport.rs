//! A bounded transportation problem solved exactly by min-cost flow: rows
//! (tasks) each send a fixed number of units, at most one to each column
//! (client), and every column receives between a lower and an upper bound.
//!
//! Rows are **sparse**: a row has one default cost for most columns and its
//! own cost (or a ban) for a few listed ones — a task costs its end offset on
//! every client without local state and its reported lag on the few with
//! some. The network therefore grows with rows + columns + listed cells, not
//! rows × columns.
//!
//! # Network
//! `source → row r` (capacity `supply[r]`, cost 0); `row r → column c` for
//! each listed, allowed cell (capacity 1, its cost); `row r → hub` (capacity
//! `min(supply[r], unlisted columns)`, the row's default cost); `hub →
//! column c` (capacity `hi_c`); and for the bounds of column `c`,
//! `[lo_c, hi_c]`:
//!
//! ```text
//! column c ──(cap lo_c)──────────────────────────────▶ sink
//! column c ──(cap hi_c − lo_c)──▶ spare ──(cap N − Σ lo)──▶ sink
//! ```
//!
//! where `N = Σ supply`. The arcs into the sink have total capacity exactly
//! `N`, so a flow of `N` units saturates every one of them: column `c`
//! receives exactly `lo_c` units on its direct arc and at most `hi_c − lo_c`
//! more through `spare` — the standard lower-bound transformation, with no
//! negative costs and no "large bonus" constant.
//!
//! # Why the answer is exact
//! The hub network is a *relaxation*: every real assignment is a flow of the
//! same cost (listed cells on their own arcs, the rest through the hub), but
//! the hub forgets which row sent which unit. So the flow's cost is a lower
//! bound, and what remains is to hand each row's hub units to distinct
//! unlisted columns so that column `c` gets exactly the `h_c` hub units the
//! flow sent it. [`split_hub`] does that greedily, most constrained rows
//! first, each taking the columns with the most hub units left (the
//! Gale–Ryser construction, exact when no column is listed). Every unit
//! placed that way costs the row's default, so a complete split has exactly
//! the lower-bound cost and is optimal. When the greedy split gets stuck
//! (possible only with listed cells in the way), the problem is solved again
//! on the dense network, one arc per allowed cell — slower, equally exact.
//!
//! In short: on a column it lists, a row is priced by its own arc, and on
//! every other column by the hub at its default — the same price as the
//! `T · C` arcs left out would carry, since an unlisted column costs the
//! default whichever row sends the unit. The only thing the hub adds is a
//! way onto a *listed* column at the default, and no complete split uses it.
//!
//! # Solvers
//! Both networks are solved exactly, by successive shortest paths for
//! problems of at most [`PATHS_UP_TO`] units and by cost scaling above
//! ([`Solver::for_units`]; see [`crate::flow`]). Among assignments of equal
//! cost they may choose differently. Below the threshold successive
//! shortest paths is fast enough (a small network has few distinct path
//! costs) and keeps the choices `optimal`'s plans were made with, so the
//! bundled simulations (which run `optimal` as a strategy) are unchanged;
//! above it, cost scaling's running time does not grow with the number of
//! distinct costs.
//!
//! # Integer range
//! Costs are `u64` records and the solver works in `i64`. Each row's costs
//! are first reduced by the row's cheapest allowed cell (every row sends a
//! fixed number of units, so this shifts every solution's cost by the same
//! constant and keeps the optimum). A residual path of the solver enters and
//! leaves each row node at most once, so every path cost, and every shortest
//! distance, lies within `±W` where `W = Σ_r (max_r − min_r)` over the rows'
//! reduced costs; the solver's node potentials stay within `V·2W` (`V`
//! nodes) and the total cost within `N·W`. The network is built only when
//! `4·W·(V + N + 2) ≤ i64::MAX`; otherwise [`TransportError::TooCostly`] is
//! returned rather than risking an overflow. Real changelog sizes (10¹²
//! records on a thousand tasks) stay well inside the guard.
//!
//! # Determinism
//! Nodes and arcs are added in row order, then column order, both solvers
//! are deterministic (ties broken by node and arc order), and the split
//! visits rows and columns in a fixed order, so equal inputs give equal
//! answers.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use petgraph::graph::{EdgeIndex, NodeIndex};

use crate::flow::{FlowError, FlowNetwork};
use crate::model::{Ix, IxVec};

/// The columns of every row, a row's in column order.
pub(crate) type Columns<R, C> = IxVec<R, Vec<C>>;

/// The `(lo, hi)` bounds of every column.
pub(crate) type Bounds<C> = IxVec<C, (usize, usize)>;

/// Why a transportation problem has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TransportError {
    /// No assignment meets the bounds.
    Infeasible,
    /// The costs are too large for exact `i64` arithmetic (the guard above).
    TooCostly {
        /// `W`, the spread of costs summed over rows (saturating).
        spread: u64,
    },
}

/// The min-cost flow algorithm a network is solved with (both exact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Solver {
    /// Successive shortest paths ([`FlowNetwork::min_cost_flow`]).
    Paths,
    /// Cost scaling ([`FlowNetwork::min_cost_flow_by_scaling`]).
    Scaling,
}

/// Problems of at most this many units are solved by successive shortest
/// paths, larger ones by cost scaling. See the module doc, "Solvers".
pub(crate) const PATHS_UP_TO: usize = 2_000;

impl Solver {
    /// The solver for a problem of `total` units.
    pub(crate) fn for_units(total: usize) -> Solver {
        if total <= PATHS_UP_TO {
            Solver::Paths
        } else {
            Solver::Scaling
        }
    }
}

/// One row: how many units it sends, its default cost, and the columns (of
/// position type `C`) with a cost of their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row<C> {
    /// Units the row sends, each to a different column.
    pub supply: usize,
    /// The cost of every column not in `cells`.
    pub default: u64,
    /// Columns with their own cost, or banned (`None`); sorted by column,
    /// each column at most once.
    pub cells: Vec<(C, Option<u64>)>,
}

impl<C: Ix> Row<C> {
    /// The cost of column `c`, `None` when banned.
    fn cost(&self, c: C) -> Option<u64> {
        match self.cells.binary_search_by_key(&c, |&(col, _)| col) {
            Ok(i) => self.cells[i].1,
            Err(_) => Some(self.default),
        }
    }

    /// Whether column `c` is listed.
    fn lists(&self, c: C) -> bool {
        self.cells.binary_search_by_key(&c, |&(col, _)| col).is_ok()
    }
}

/// Solves the problem; for every row, the columns it sends a unit to, in
/// column order. `bounds[c] = (lo, hi)`; a listed column must be below
/// `bounds.len()`. Rows are positions `R` (tasks), columns `C` (clients).
pub(crate) fn solve<R: Ix, C: Ix>(
    rows: &IxVec<R, Row<C>>,
    bounds: &Bounds<C>,
) -> Result<Columns<R, C>, TransportError> {
    let total: usize = rows.iter().map(|r| r.supply).sum();
    solve_by(rows, bounds, Solver::for_units(total))
}

/// [`solve`] with the given flow algorithm.
pub(crate) fn solve_by<R: Ix, C: Ix>(
    rows: &IxVec<R, Row<C>>,
    bounds: &Bounds<C>,
    by: Solver,
) -> Result<Columns<R, C>, TransportError> {
    let cols = bounds.len();
    let total: usize = rows.iter().map(|r| r.supply).sum();
    let lower: usize = bounds.iter().map(|b| b.0).sum();
    if lower > total || bounds.iter().any(|&(lo, hi)| lo > hi) {
        return Err(TransportError::Infeasible);
    }
    let floors = reduce(rows, cols, rows.len() + cols + 4, total)?;
    let mut net = Network::new(rows, bounds.len())?;
    let hub = net.net.add_node();
    let mut hub_in = IxVec::<R, _>::new();
    for (r, row) in rows.iter_enumerated() {
        for &(c, cost) in &row.cells {
            if let Some(cost) = cost {
                net.cell_arc(r, c, cost - floors[r])?;
            }
        }
        let open = row.supply.min(cols - row.cells.len());
        hub_in.push(if open > 0 {
            // Unlisted columns exist, so the default is one of the row's costs.
            let cost = to_i64(row.default - floors[r])?;
            Some(net.net.add_arc(net.rows[r], hub, to_i64(open)?, cost))
        } else {
            None
        });
    }
    let hub_out: IxVec<C, EdgeIndex> = bounds
        .indices()
        .map(|c| Ok(net.net.add_arc(hub, net.cols[c], to_i64(bounds[c].1)?, 0)))
        .collect::<Result<_, TransportError>>()?;
    net.bound_arcs(bounds, total)?;
    net.solve(total, by)?;
    let via_hub: IxVec<R, usize> = hub_in
        .iter()
        .map(|e| e.map_or(0, |e| units(net.net.arc(e).flow)))
        .collect();
    let per_column: IxVec<C, usize> = hub_out
        .iter()
        .map(|&e| units(net.net.arc(e).flow))
        .collect();
    let Some(split) = split_hub(rows, &via_hub, per_column) else {
        return solve_dense(rows, bounds, &floors, total, by);
    };
    Ok(split
        .indices()
        .zip(split)
        .map(|(r, mut picked)| {
            picked.extend(net.columns_of(r));
            picked.sort_unstable();
            picked
        })
        .collect())
}

/// The dense network, one arc per allowed cell: the fallback when the hub
/// units cannot be split.
fn solve_dense<R: Ix, C: Ix>(
    rows: &IxVec<R, Row<C>>,
    bounds: &Bounds<C>,
    floors: &IxVec<R, u64>,
    total: usize,
    by: Solver,
) -> Result<Columns<R, C>, TransportError> {
    let mut net = Network::new(rows, bounds.len())?;
    for (r, row) in rows.iter_enumerated() {
        for c in bounds.indices() {
            if let Some(cost) = row.cost(c) {
                net.cell_arc(r, c, cost - floors[r])?;
            }
        }
    }
    net.bound_arcs(bounds, total)?;
    net.solve(total, by)?;
    Ok(rows.indices().map(|r| net.columns_of(r)).collect())
}

/// Each row's cheapest allowed cost (its floor), after checking the overflow
/// guard for a network of `nodes` nodes carrying `total` units.
fn reduce<R: Ix, C: Ix>(
    rows: &IxVec<R, Row<C>>,
    cols: usize,
    nodes: usize,
    total: usize,
) -> Result<IxVec<R, u64>, TransportError> {
    let mut spread: u64 = 0;
    let mut floors = IxVec::new();
    for row in rows {
        let unlisted = row.cells.len() < cols;
        let costs = row
            .cells
            .iter()
            .filter_map(|&(_, cost)| cost)
            .chain(unlisted.then_some(row.default));
        let (min, max) = costs.fold((u64::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)));
        let min = min.min(max);
        spread = spread.saturating_add(max - min);
        floors.push(min);
    }
    let factor = 4u128 * (nodes as u128 + total as u128 + 2);
    if u128::from(spread) * factor > i64::MAX as u128 {
        return Err(TransportError::TooCostly { spread });
    }
    Ok(floors)
}

/// Within the guard every reduced cost and count fits; this only converts.
fn to_i64(n: impl TryInto<i64>) -> Result<i64, TransportError> {
    n.try_into()
        .map_err(|_| TransportError::TooCostly { spread: u64::MAX })
}

/// The parts both networks share: source → rows, columns → (spare) → sink.
struct Network<R, C> {
    net: FlowNetwork,
    source: NodeIndex,
    rows: IxVec<R, NodeIndex>,
    cols: IxVec<C, NodeIndex>,
    spare: NodeIndex,
    sink: NodeIndex,
}

impl<R: Ix, C: Ix> Network<R, C> {
    /// Source, row and column nodes, `spare` and `sink`, and the source → row
    /// arcs.
    fn new(rows: &IxVec<R, Row<C>>, cols: usize) -> Result<Self, TransportError> {
        let mut net = FlowNetwork::new();
        let source = net.add_node();
        let row_nodes: IxVec<R, NodeIndex> = rows.iter().map(|_| net.add_node()).collect();
        let col_nodes: IxVec<C, NodeIndex> = (0..cols).map(|_| net.add_node()).collect();
        let spare = net.add_node();
        let sink = net.add_node();
        for (row, &node) in rows.iter().zip(&row_nodes) {
            if row.supply > 0 {
                net.add_arc(source, node, to_i64(row.supply)?, 0);
            }
        }
        Ok(Network {
            net,
            source,
            rows: row_nodes,
            cols: col_nodes,
            spare,
            sink,
        })
    }

    /// Row `r` → column `c`, one unit at the (reduced) `cost`.
    fn cell_arc(&mut self, r: R, c: C, cost: u64) -> Result<(), TransportError> {
        self.net
            .add_arc(self.rows[r], self.cols[c], 1, to_i64(cost)?);
        Ok(())
    }

    /// The bound arcs of every column, and `spare → sink`.
    fn bound_arcs(&mut self, bounds: &Bounds<C>, total: usize) -> Result<(), TransportError> {
        let mut lower = 0;
        for (&(lo, hi), &col) in bounds.iter().zip(&self.cols) {
            if lo > 0 {
                self.net.add_arc(col, self.sink, to_i64(lo)?, 0);
            }
            if hi > lo {
                self.net.add_arc(col, self.spare, to_i64(hi - lo)?, 0);
            }
            lower += lo;
        }
        if total > lower {
            self.net
                .add_arc(self.spare, self.sink, to_i64(total - lower)?, 0);
        }
        Ok(())
    }

    /// Sends all `total` units.
    fn solve(&mut self, total: usize, by: Solver) -> Result<(), TransportError> {
        let (s, t, n) = (self.source, self.sink, to_i64(total)?);
        let solved = match by {
            Solver::Paths => self.net.min_cost_flow(s, t, n),
            Solver::Scaling => self.net.min_cost_flow_by_scaling(s, t, n),
        };
        match solved {
            Ok(_) => Ok(()),
            Err(FlowError::Infeasible { .. }) => Err(TransportError::Infeasible),
            // All costs are non-negative: a negative cycle cannot exist.
            Err(FlowError::NegativeCycle) => Err(TransportError::Infeasible),
        }
    }

    /// The columns row `r` sends a unit to on its own arcs, in column order.
    fn columns_of(&self, r: R) -> Vec<C> {
        let first = self.cols.iter().next().map_or(0, |n| n.index());
        let end = first + self.cols.len();
        self.net
            .flows_from(self.rows[r])
            .into_iter()
            .map(|(to, _)| to.index())
            .filter(|&to| (first..end).contains(&to))
            .map(|to| column(to - first))
            .collect()
    }
}

/// Hands every row's hub units (`via_hub[r]`) to distinct columns it does
/// not list, column `c` taking exactly `per_column[c]` of them; for every
/// row, the columns it got. Most constrained rows first (most listed
/// columns, then most units, then row order), each taking the columns with
/// the most units left (ties to the lower column). `None` when a row finds
/// too few columns.
///
/// O(Σ units · log C + Σ listed cells) with an ordered set of columns.
fn split_hub<R: Ix, C: Ix>(
    rows: &IxVec<R, Row<C>>,
    via_hub: &IxVec<R, usize>,
    mut per_column: IxVec<C, usize>,
) -> Option<Columns<R, C>> {
    let mut order: Vec<R> = rows.indices().filter(|&r| via_hub[r] > 0).collect();
    order.sort_by_key(|&r| (Reverse(rows[r].cells.len()), Reverse(via_hub[r]), r));
    let mut open: BTreeSet<(Reverse<usize>, C)> = per_column
        .iter_enumerated()
        .filter(|&(_, &n)| n > 0)
        .map(|(c, &n)| (Reverse(n), c))
        .collect();
    let mut got = IxVec::from_elem(Vec::new(), rows.len());
    for r in order {
        let picked: Vec<C> = open
            .iter()
            .map(|&(_, c)| c)
            .filter(|&c| !rows[r].lists(c))
            .take(via_hub[r])
            .collect();
        if picked.len() < via_hub[r] {
            return None;
        }
        for &c in &picked {
            open.remove(&(Reverse(per_column[c]), c));
            per_column[c] -= 1;
            if per_column[c] > 0 {
                open.insert((Reverse(per_column[c]), c));
            }
        }
        got[r] = picked;
    }
    Some(got)
}

/// The column at `offset` among the column nodes: below their count, which
/// comes from a list of positions.
fn column<C: Ix>(offset: usize) -> C {
    C::from_raw(u32::try_from(offset).expect("a column position fits in u32"))
}

/// A solved arc's flow as a count: between 0 and the arc's capacity, which
/// was made from a `usize` count (`to_i64`).
fn units(flow: i64) -> usize {
    usize::try_from(flow).expect("a flow is a count of units")
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::model::{ClientIx, TaskIx};

    /// Rows are tasks, columns clients, as in the strategy.
    type Rows = IxVec<TaskIx, Row<ClientIx>>;

    fn row(supply: usize, default: u64, cells: &[(usize, Option<u64>)]) -> Row<ClientIx> {
        Row {
            supply,
            default,
            cells: cells
                .iter()
                .map(|&(c, cost)| (ClientIx::from_position(c), cost))
                .collect(),
        }
    }

    /// An answer in plain column numbers.
    fn raw(got: Columns<TaskIx, ClientIx>) -> Vec<Vec<usize>> {
        got.iter()
            .map(|cols| cols.iter().map(|c| c.index()).collect())
            .collect()
    }

    /// [`solve`] on plain arrays, the answer in plain column numbers.
    fn run(
        rows: &[Row<ClientIx>],
        bounds: &[(usize, usize)],
    ) -> Result<Vec<Vec<usize>>, TransportError> {
        let rows: Rows = IxVec::from_raw(rows.to_vec());
        solve(&rows, &IxVec::from_raw(bounds.to_vec())).map(raw)
    }

    #[test]
    fn lower_bounds_are_met() {
        // Two rows, both cheaper on column 0, but column 1 must take one.
        let rows = [row(1, 0, &[(1, Some(10))]), row(1, 0, &[(1, Some(11))])];
        let got = run(&rows, &[(0, 2), (1, 2)]).unwrap();
        // Row 0 is cheaper there (10 < 11).
        assert_eq!(got, vec![vec![1], vec![0]]);
    }

    #[test]
    fn banned_cells_are_avoided_and_infeasibility_reported() {
        let got = run(&[row(1, 5, &[(0, None)])], &[(0, 1), (0, 1)]).unwrap();
        assert_eq!(got, vec![vec![1]]);
        let banned = row(1, 5, &[(0, None), (1, None)]);
        assert_eq!(
            run(&[banned], &[(0, 1), (0, 1)]),
            Err(TransportError::Infeasible)
        );
        assert_eq!(
            run(&[row(2, 0, &[(0, None)])], &[(1, 1), (1, 1)]),
            Err(TransportError::Infeasible)
        );
    }

    #[test]
    fn huge_costs_are_refused_not_overflowed() {
        let rows = [
            row(1, u64::MAX, &[(0, Some(0))]),
            row(1, u64::MAX, &[(1, Some(0))]),
        ];
        let got = run(&rows, &[(1, 1), (1, 1)]);
        assert!(matches!(got, Err(TransportError::TooCostly { .. })));
        // The same cost on every cell of a row is reduced away.
        let rows = [row(1, u64::MAX, &[]), row(1, u64::MAX, &[])];
        assert_eq!(run(&rows, &[(1, 1), (1, 1)]).unwrap().len(), 2);
    }

    #[test]
    fn the_greedy_split_can_get_stuck_where_a_split_exists() {
        // Row 0 bans columns 2 and 3, row 1 bans column 1; one hub unit each
        // for columns 0 and 1. Row 0 goes first and takes column 0, leaving
        // row 1 only its banned column — yet row 0 → 1, row 1 → 0 works.
        let rows = [row(1, 9, &[(2, None), (3, None)]), row(1, 9, &[(1, None)])];
        let rows: Rows = IxVec::from_raw(rows.to_vec());
        let split = split_hub(
            &rows,
            &IxVec::from_raw(vec![1, 1]),
            IxVec::<ClientIx, _>::from_raw(vec![1, 1, 0, 0]),
        );
        assert_eq!(split, None);
        // `solve` then falls back to the dense network.
        let bounds = [(1, 1), (1, 1), (0, 0), (0, 0)];
        assert_eq!(
            raw(solve(&rows, &IxVec::from_raw(bounds.to_vec())).unwrap()),
            vec![vec![1], vec![0]]
        );
    }

    /// Σ cost of an answer, checking it is a valid assignment on the way.
    fn checked_cost(
        rows: &Rows,
        bounds: &Bounds<ClientIx>,
        got: &Columns<TaskIx, ClientIx>,
    ) -> u64 {
        let mut per_column: IxVec<ClientIx, usize> = IxVec::from_elem(0, bounds.len());
        let mut cost = 0;
        for (row, cols) in rows.iter().zip(got) {
            assert_eq!(cols.len(), row.supply);
            assert!(cols.windows(2).all(|w| w[0] < w[1]), "distinct, sorted");
            for &c in cols {
                cost += row.cost(c).expect("no banned cell used");
                per_column[c] += 1;
            }
        }
        for (n, &(lo, hi)) in per_column.iter().zip(bounds) {
            assert!((lo..=hi).contains(n), "{n} outside {lo}..={hi}");
        }
        cost
    }

    /// Every row's choice of `supply` distinct allowed columns, tried in
    /// full: the least cost meeting the bounds (`Some(None)` when no choice
    /// meets them), or `None` when there are more than `limit` combinations
    /// to try.
    fn brute_force(rows: &Rows, bounds: &Bounds<ClientIx>, limit: usize) -> Option<Option<u64>> {
        let cols = bounds.len();
        // Each row's options: sets of columns as bit masks, with their cost.
        let options: Vec<Vec<(u32, u64)>> = rows
            .iter()
            .map(|row| {
                (0u32..1 << cols)
                    .filter(|m| m.count_ones() as usize == row.supply)
                    .filter_map(|m| {
                        (0..cols)
                            .filter(|&c| m & (1 << c) != 0)
                            .map(|c| row.cost(ClientIx::from_position(c)))
                            .sum::<Option<u64>>()
                            .map(|cost| (m, cost))
                    })
                    .collect()
            })
            .collect();
        let combos = options
            .iter()
            .try_fold(1usize, |n, o| n.checked_mul(o.len().max(1)))?;
        if combos > limit {
            return None;
        }
        let mut best = None;
        let mut counts = vec![0usize; cols];
        fn go(
            options: &[Vec<(u32, u64)>],
            bounds: &Bounds<ClientIx>,
            counts: &mut [usize],
            cost: u64,
            best: &mut Option<u64>,
        ) {
            let Some((first, rest)) = options.split_first() else {
                let fits = counts
                    .iter()
                    .zip(bounds)
                    .all(|(&n, &(lo, hi))| (lo..=hi).contains(&n));
                if fits {
                    *best = Some(best.map_or(cost, |b: u64| b.min(cost)));
                }
                return;
            };
            for &(m, c) in first {
                for (k, n) in counts.iter_mut().enumerate() {
                    *n += usize::from(m & (1 << k) != 0);
                }
                go(rest, bounds, counts, cost + c, best);
                for (k, n) in counts.iter_mut().enumerate() {
                    *n -= usize::from(m & (1 << k) != 0);
                }
            }
        }
        go(&options, bounds, &mut counts, 0, &mut best);
        Some(best)
    }

    /// A random problem: up to 7 rows of supply 0 to 2 on up to 5 columns,
    /// some cells listed (a few banned), random bounds.
    fn random_problem(rng: &mut ChaCha8Rng) -> (Rows, Bounds<ClientIx>) {
        let cols = rng.random_range(1..6);
        let rows: Rows = (0..rng.random_range(1..8))
            .map(|_| {
                let mut cells = Vec::new();
                for c in 0..cols {
                    if rng.random_bool(0.4) {
                        let cost = rng.random_bool(0.8).then(|| rng.random_range(0..20));
                        cells.push((c, cost));
                    }
                }
                row(rng.random_range(0..3), rng.random_range(0..20), &cells)
            })
            .collect();
        let total: usize = rows.iter().map(|r| r.supply).sum();
        let bounds: Bounds<ClientIx> = (0..cols)
            .map(|_| {
                let lo = rng.random_range(0..=total / cols);
                (lo, lo + rng.random_range(0..=total))
            })
            .collect();
        (rows, bounds)
    }

    /// The sparse network with either solver, and the dense one with cost
    /// scaling, cost what the dense one with successive shortest paths
    /// does, and that is what enumeration finds when the problem is small
    /// enough to enumerate; whether the problem is feasible, likewise. Returns
    /// whether it was feasible.
    fn check_random(rows: &Rows, bounds: &Bounds<ClientIx>) -> bool {
        let total: usize = rows.iter().map(|r| r.supply).sum();
        let floors = reduce(rows, bounds.len(), rows.len() + bounds.len() + 4, total).unwrap();
        let dense = solve_dense(rows, bounds, &floors, total, Solver::Paths);
        let want = dense.as_ref().ok().map(|d| checked_cost(rows, bounds, d));
        if let Some(enumerated) = brute_force(rows, bounds, 20_000) {
            assert_eq!(want, enumerated, "{rows:?} {bounds:?}");
        }
        let others = [
            solve_by(rows, bounds, Solver::Paths),
            solve_by(rows, bounds, Solver::Scaling),
            solve_dense(rows, bounds, &floors, total, Solver::Scaling),
        ];
        for other in others {
            let got = other.as_ref().ok().map(|s| checked_cost(rows, bounds, s));
            assert_eq!(got, want, "{rows:?} {bounds:?}");
        }
        want.is_some()
    }

    #[test]
    fn sparse_and_dense_networks_agree_on_random_problems() {
        let mut rng = ChaCha8Rng::seed_from_u64(441);
        let (mut solved, mut enumerated) = (0, 0);
        for _ in 0..2_000 {
            let (rows, bounds) = random_problem(&mut rng);
            solved += usize::from(check_random(&rows, &bounds));
            enumerated += usize::from(brute_force(&rows, &bounds, 20_000).is_some());
        }
        assert!(solved > 500, "only {solved} feasible problems");
        assert!(enumerated > 1_000, "only {enumerated} problems enumerated");
    }

    proptest::proptest! {
        /// [`check_random`] on seeded problems.
        #[test]
        fn solvers_agree_with_enumeration(seed in proptest::prelude::any::<u64>()) {
            let (rows, bounds) = random_problem(&mut ChaCha8Rng::seed_from_u64(seed));
            check_random(&rows, &bounds);
        }
    }
}
