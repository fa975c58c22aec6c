//! A bounded transportation problem solved exactly by min-cost flow: rows
//! (tasks) each send a fixed number of units, at most one to each column
//! (client), and every column receives between a lower and an upper bound.
//!
//! # Network
//! `source → row r` (capacity `supply[r]`, cost 0), `row r → column c`
//! (capacity 1, the cell's cost; no arc for a forbidden cell), and for the
//! bounds of column `c`, `[lo_c, hi_c]`:
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
//! negative costs and no "large bonus" constant. The flow exists exactly when
//! the bounded problem is feasible.
//!
//! # Exactness
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
//! Nodes and arcs are added in row order, then column order, and the solver
//! breaks ties by arc order, so equal inputs give equal answers.

use petgraph::graph::NodeIndex;

use crate::flow::{FlowError, FlowNetwork};

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

/// Solves the problem; for every row, the columns it sends a unit to, in
/// column order.
///
/// `cost(r, c)` is `None` for a forbidden cell. `bounds[c] = (lo, hi)` with
/// `lo ≤ hi`.
pub(crate) fn solve(
    supply: &[usize],
    bounds: &[(usize, usize)],
    cost: impl Fn(usize, usize) -> Option<u64>,
) -> Result<Vec<Vec<usize>>, TransportError> {
    let rows = supply.len();
    let cols = bounds.len();
    let total: usize = supply.iter().sum();
    let lower: usize = bounds.iter().map(|b| b.0).sum();
    if lower > total || bounds.iter().any(|&(lo, hi)| lo > hi) {
        return Err(TransportError::Infeasible);
    }
    // Reduced costs, row by row, and the guard.
    let mut reduced: Vec<Vec<Option<u64>>> = Vec::with_capacity(rows);
    let mut spread: u64 = 0;
    for r in 0..rows {
        let row: Vec<Option<u64>> = (0..cols).map(|c| cost(r, c)).collect();
        let min = row.iter().flatten().copied().min().unwrap_or(0);
        let max = row.iter().flatten().copied().max().unwrap_or(0);
        spread = spread.saturating_add(max - min);
        reduced.push(row.into_iter().map(|c| c.map(|c| c - min)).collect());
    }
    let nodes = rows + cols + 3;
    let factor = 4u128 * (nodes as u128 + total as u128 + 2);
    if u128::from(spread) * factor > i64::MAX as u128 {
        return Err(TransportError::TooCostly { spread });
    }
    let as_i64 = |n: usize| i64::try_from(n).map_err(|_| TransportError::TooCostly { spread });

    let mut net = FlowNetwork::new();
    let source = net.add_node();
    let row_nodes: Vec<NodeIndex> = (0..rows).map(|_| net.add_node()).collect();
    let col_nodes: Vec<NodeIndex> = (0..cols).map(|_| net.add_node()).collect();
    let spare = net.add_node();
    let sink = net.add_node();
    for (r, &node) in row_nodes.iter().enumerate() {
        if supply[r] > 0 {
            net.add_arc(source, node, as_i64(supply[r])?, 0);
        }
    }
    for (r, row) in reduced.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if let Some(w) = cell {
                // Within the guard, so it fits.
                let w = i64::try_from(*w).map_err(|_| TransportError::TooCostly { spread })?;
                net.add_arc(row_nodes[r], col_nodes[c], 1, w);
            }
        }
    }
    for (c, &(lo, hi)) in bounds.iter().enumerate() {
        if lo > 0 {
            net.add_arc(col_nodes[c], sink, as_i64(lo)?, 0);
        }
        if hi > lo {
            net.add_arc(col_nodes[c], spare, as_i64(hi - lo)?, 0);
        }
    }
    if total > lower {
        net.add_arc(spare, sink, as_i64(total - lower)?, 0);
    }
    match net.min_cost_flow(source, sink, as_i64(total)?) {
        Ok(_) => {}
        Err(FlowError::Infeasible { .. }) => return Err(TransportError::Infeasible),
        // All costs are non-negative: a negative cycle cannot exist.
        Err(FlowError::NegativeCycle) => return Err(TransportError::Infeasible),
    }
    let first_col = col_nodes.first().map_or(0, |n| n.index());
    Ok(row_nodes
        .iter()
        .map(|&node| {
            net.flows_from(node)
                .into_iter()
                .map(|(to, _)| to.index() - first_col)
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_bounds_are_met() {
        // Two rows, both cheaper on column 0, but column 1 must take one.
        let got = solve(&[1, 1], &[(0, 2), (1, 2)], |r, c| {
            Some(if c == 0 { 0 } else { 10 + r as u64 })
        })
        .unwrap();
        // Row 0 is cheaper there (10 < 11).
        assert_eq!(got, vec![vec![1], vec![0]]);
    }

    #[test]
    fn forbidden_cells_are_avoided_and_infeasibility_reported() {
        let got = solve(&[1], &[(0, 1), (0, 1)], |_, c| (c == 1).then_some(5)).unwrap();
        assert_eq!(got, vec![vec![1]]);
        assert_eq!(
            solve(&[1], &[(0, 1), (0, 1)], |_, _| None),
            Err(TransportError::Infeasible)
        );
        assert_eq!(
            solve(&[2], &[(1, 1), (1, 1)], |_, c| (c == 1).then_some(0)),
            Err(TransportError::Infeasible)
        );
    }

    #[test]
    fn huge_costs_are_refused_not_overflowed() {
        let got = solve(&[1, 1], &[(1, 1), (1, 1)], |r, c| {
            Some(if r == c { 0 } else { u64::MAX })
        });
        assert!(matches!(got, Err(TransportError::TooCostly { .. })));
        // The same cost on every cell of a row is reduced away.
        let got = solve(&[1, 1], &[(1, 1), (1, 1)], |_, _| Some(u64::MAX)).unwrap();
        assert_eq!(got.len(), 2);
    }
}
