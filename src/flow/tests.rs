//! Tiny hand-computed networks.

use super::*;

fn network(nodes: usize) -> (FlowNetwork, Vec<NodeIndex>) {
    let mut net = FlowNetwork::new();
    let ids = (0..nodes).map(|_| net.add_node()).collect();
    (net, ids)
}

fn flows(net: &FlowNetwork) -> Vec<i64> {
    net.arcs().map(|(_, _, a)| a.flow).collect()
}

#[test]
fn cheap_path_first_then_the_dear_one() {
    let (mut net, n) = network(3);
    let (s, a, t) = (n[0], n[1], n[2]);
    net.add_arc(s, a, 2, 1);
    net.add_arc(a, t, 2, 1);
    net.add_arc(s, t, 1, 5);
    assert_eq!(net.min_cost_flow(s, t, 2), Ok(4));
    assert_eq!(flows(&net), [2, 2, 0]);
    assert_eq!(net.min_cost_flow(s, t, 3), Ok(9));
    assert_eq!(flows(&net), [2, 2, 1]);
    assert_eq!(net.flows_from(s), [(a, 2), (t, 1)]);
    assert!(!net.residual_has_negative_cycle());
}

#[test]
fn infeasible_leaves_a_cheapest_maximum_flow() {
    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], 1, 3);
    net.add_arc(n[0], n[1], 1, 1);
    assert_eq!(
        net.min_cost_flow(n[0], n[1], 5),
        Err(FlowError::Infeasible {
            demand: 5,
            reached: 2
        })
    );
    assert_eq!(flows(&net), [1, 1]);
    assert_eq!(net.total_cost(), 4);
}

#[test]
fn parallel_arcs_are_used_cheapest_first() {
    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], 1, 3);
    net.add_arc(n[0], n[1], 2, 1);
    net.add_arc(n[0], n[1], 1, 2);
    assert_eq!(net.min_cost_flow(n[0], n[1], 3), Ok(4));
    assert_eq!(flows(&net), [0, 2, 1]);
    assert_eq!(net.flows_from(n[0]), [(n[1], 2), (n[1], 1)]);
}

#[test]
fn second_path_reroutes_the_first() {
    // Two tasks, two clients of capacity 1; costs [[1, 2], [1, 10]].
    // The cheapest single placement (task 0 → client 0) is not in the optimum
    // (task 0 → client 1, task 1 → client 0: cost 3).
    let (mut net, n) = network(6);
    let (s, t0, t1, c0, c1, t) = (n[0], n[1], n[2], n[3], n[4], n[5]);
    net.add_arc(s, t0, 1, 0);
    net.add_arc(s, t1, 1, 0);
    let a00 = net.add_arc(t0, c0, 1, 1);
    let a01 = net.add_arc(t0, c1, 1, 2);
    let a10 = net.add_arc(t1, c0, 1, 1);
    let a11 = net.add_arc(t1, c1, 1, 10);
    net.add_arc(c0, t, 1, 0);
    net.add_arc(c1, t, 1, 0);
    assert_eq!(net.min_cost_flow(s, t, 1), Ok(1));
    assert_eq!(net.min_cost_flow(s, t, 2), Ok(3));
    let got: Vec<i64> = [a00, a01, a10, a11]
        .iter()
        .map(|&e| net.arc(e).flow)
        .collect();
    assert_eq!(got, [0, 1, 1, 0]);
    assert_eq!(net.flows_from(t0), [(c1, 1)]);
}

#[test]
fn negative_costs_without_a_cycle() {
    let (mut net, n) = network(3);
    let (s, a, t) = (n[0], n[1], n[2]);
    net.add_arc(s, a, 1, -5);
    net.add_arc(a, t, 1, 2);
    net.add_arc(s, t, 1, 0);
    assert_eq!(net.min_cost_flow(s, t, 1), Ok(-3));
    assert_eq!(net.min_cost_flow(s, t, 2), Ok(-3));
    // Demand 0 sends nothing even though a path has negative cost.
    assert_eq!(net.min_cost_flow(s, t, 0), Ok(0));
    assert_eq!(flows(&net), [0, 0, 0]);
}

#[test]
fn negative_cycle_anywhere_is_reported() {
    let (mut net, n) = network(5);
    let (s, t, x, y) = (n[0], n[1], n[3], n[4]);
    net.add_arc(s, t, 1, 1);
    // Unreachable from the source, but still a cheaper circulation.
    net.add_arc(x, y, 1, -2);
    net.add_arc(y, x, 1, 1);
    assert_eq!(net.min_cost_flow(s, t, 1), Err(FlowError::NegativeCycle));
    assert_eq!(flows(&net), [0, 0, 0]);
    assert!(net.residual_has_negative_cycle());
}

#[test]
fn negative_loop_is_a_cycle_but_zero_capacity_hides_one() {
    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], 1, 1);
    let lp = net.add_arc(n[1], n[1], 1, 0);
    assert_eq!(net.min_cost_flow(n[0], n[1], 1), Ok(1));
    assert_eq!(net.arc(lp).flow, 0);

    let (mut net, n) = network(3);
    net.add_arc(n[0], n[1], 1, 1);
    net.add_arc(n[1], n[2], 0, -5);
    net.add_arc(n[2], n[1], 4, 1);
    assert_eq!(net.min_cost_flow(n[0], n[1], 1), Ok(1));

    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], 1, 1);
    net.add_arc(n[1], n[1], 1, -1);
    assert_eq!(
        net.min_cost_flow(n[0], n[1], 1),
        Err(FlowError::NegativeCycle)
    );
}

#[test]
fn zero_cost_cycles_are_fine() {
    let (mut net, n) = network(3);
    let (s, a, t) = (n[0], n[1], n[2]);
    net.add_arc(s, a, 2, 0);
    net.add_arc(a, s, 2, 0);
    net.add_arc(a, t, 2, 3);
    assert_eq!(net.min_cost_flow(s, t, 2), Ok(6));
    assert_eq!(flows(&net), [2, 0, 2]);
}

#[test]
fn source_equal_to_sink_sends_nothing() {
    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], 1, 1);
    net.add_arc(n[1], n[0], 1, 1);
    assert_eq!(net.min_cost_flow(n[0], n[0], 3), Ok(0));
    assert_eq!(flows(&net), [0, 0]);
}

#[test]
fn unreachable_sink_and_empty_networks() {
    let (mut net, n) = network(3);
    net.add_arc(n[0], n[1], 1, 1);
    net.add_arc(n[2], n[1], 1, -4);
    assert_eq!(
        net.min_cost_flow(n[0], n[2], 1),
        Err(FlowError::Infeasible {
            demand: 1,
            reached: 0
        })
    );
    assert_eq!(net.min_cost_flow(n[0], n[2], 0), Ok(0));
    let (mut net, n) = network(2);
    assert_eq!(net.min_cost_flow(n[0], n[1], 0), Ok(0));
    assert!(matches!(
        net.min_cost_flow(n[0], n[1], 1),
        Err(FlowError::Infeasible { reached: 0, .. })
    ));
}

#[test]
fn ties_go_to_the_earlier_arc() {
    let (mut net, n) = network(4);
    let (s, a, b, t) = (n[0], n[1], n[2], n[3]);
    net.add_arc(s, b, 1, 0);
    net.add_arc(s, a, 1, 0);
    net.add_arc(a, t, 1, 1);
    net.add_arc(b, t, 1, 1);
    assert_eq!(net.min_cost_flow(s, t, 1), Ok(1));
    assert_eq!(net.flows_from(s), [(b, 1)]);
    // Same network again: same flow.
    let before = flows(&net);
    assert_eq!(net.min_cost_flow(s, t, 1), Ok(1));
    assert_eq!(flows(&net), before);
}

#[test]
fn stale_flows_are_overwritten() {
    let (mut net, n) = network(2);
    let e = net.add_arc(n[0], n[1], 3, 2);
    assert_eq!(net.min_cost_flow(n[0], n[1], 3), Ok(6));
    assert_eq!(net.min_cost_flow(n[0], n[1], 1), Ok(2));
    assert_eq!(net.arc(e).flow, 1);
}

#[test]
fn certificate_spots_a_dear_flow() {
    let (mut net, n) = network(2);
    let dear = net.add_arc(n[0], n[1], 1, 5);
    net.add_arc(n[0], n[1], 1, 1);
    net.graph[dear].flow = 1;
    // Rerouting the unit through the cheap arc is a negative residual cycle.
    assert!(net.residual_has_negative_cycle());
    assert_eq!(net.min_cost_flow(n[0], n[1], 1), Ok(1));
    assert!(!net.residual_has_negative_cycle());
}

#[test]
#[should_panic(expected = "non-negative")]
fn negative_capacity_is_rejected() {
    let (mut net, n) = network(2);
    net.add_arc(n[0], n[1], -1, 0);
}
