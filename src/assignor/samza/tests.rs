//! Unit tests of the two levels on their own: Samza's
//! `TestGroupByContainerCount` vectors on the balance step (tasks by rank:
//! `Partition 0..8` sort as their numbers), the derivation of the previous
//! layout, and the placement's failover and fallback.

use crate::model::{AssignmentConfig, Client, ClusterState, Task, TaskId};

use super::grouping::{balance, name_order, quota, round_robin};
use super::placement::{bind, Host, Request, Site};
use super::previous::Previous;

fn tid(s: &str) -> TaskId {
    s.parse().expect("test task id")
}

fn sorted(mut groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for g in &mut groups {
        g.sort_unstable();
    }
    groups
}

#[test]
fn quotas_give_the_remainder_to_the_lowest_ids() {
    let q: Vec<usize> = (0..5).map(|i| quota(i, 10, 4)).collect();
    assert_eq!(q, vec![3, 3, 2, 2, 0]);
}

#[test]
fn round_robin_deals_ranks() {
    assert_eq!(
        round_robin(5, 2),
        vec![vec![0, 2, 4], vec![1, 3]],
        "testGroupHappyPath"
    );
}

#[test]
fn spec_vector_grow_to_four_and_back_to_three() {
    // `GroupByContainerCount`'s balance example (docs/algorithms.md,
    // *Samza: worked examples*): T00..T09, previous RR over 3.
    let previous = round_robin(10, 3);
    assert_eq!(
        previous,
        vec![vec![0, 3, 6, 9], vec![1, 4, 7], vec![2, 5, 8]]
    );
    let grown = balance(&previous, 10, 4);
    assert_eq!(
        grown,
        vec![vec![0, 3, 6], vec![1, 4, 7], vec![2, 5], vec![8, 9]]
    );
    assert_eq!(balance(&grown, 10, 3), previous);
}

#[test]
fn balancer_after_container_increase() {
    let grown = balance(&round_robin(9, 2), 9, 4);
    assert_eq!(
        grown,
        vec![vec![0, 2, 4], vec![1, 3], vec![6, 8], vec![5, 7]]
    );
}

#[test]
fn balancer_after_container_decrease_and_again() {
    let previous = round_robin(9, 4);
    assert_eq!(
        balance(&previous, 9, 2),
        vec![vec![0, 2, 4, 6, 8], vec![1, 3, 5, 7]]
    );
    // testBalancerMultipleReblances' second step reads the 4-container mapping.
    assert_eq!(
        balance(&previous, 9, 3),
        vec![vec![0, 4, 8], vec![1, 5, 7], vec![2, 3, 6]]
    );
}

#[test]
fn same_count_keeps_even_an_unbalanced_grouping() {
    let previous = round_robin(9, 2);
    assert_eq!(balance(&previous, 9, 2), previous);
    let custom = vec![vec![0, 1, 2, 3, 4, 5], vec![6, 7, 8]];
    assert_eq!(balance(&custom, 9, 2), custom);
}

#[test]
fn custom_grouping_with_container_increase() {
    let custom = vec![vec![0], vec![1, 2, 3, 4, 5]];
    assert_eq!(
        sorted(balance(&custom, 6, 3)),
        vec![vec![0, 5], vec![1, 2], vec![3, 4]]
    );
}

#[test]
fn one_old_or_one_new_container_falls_back_to_round_robin() {
    assert_eq!(balance(&round_robin(3, 1), 3, 3), round_robin(3, 3));
    assert_eq!(balance(&round_robin(3, 3), 3, 1), vec![vec![0, 1, 2]]);
}

fn state(tasks: &[&str], stateless: &[&str], clients: Vec<Client>) -> ClusterState {
    let mut all: Vec<Task> = tasks.iter().map(|s| Task::stateful(tid(s), 100)).collect();
    all.extend(stateless.iter().map(|s| Task::stateless(tid(s))));
    ClusterState::new(AssignmentConfig::default(), all, clients).expect("valid test state")
}

fn ranks(state: &ClusterState) -> (Vec<usize>, Vec<usize>) {
    let order = name_order(state);
    let mut rank = vec![0; order.len()];
    for (r, &t) in order.iter().enumerate() {
        rank[t] = r;
    }
    (order, rank)
}

#[test]
fn names_sort_as_strings() {
    let ids = ["0_2", "0_10", "1_0", "10_0", "0_1"];
    let s = state(&ids, &[], vec![Client::new("a", 1)]);
    let (order, _) = ranks(&s);
    let names: Vec<String> = order.iter().map(|&t| s.tasks()[t].id.to_string()).collect();
    assert_eq!(names, vec!["0_1", "0_10", "0_2", "10_0", "1_0"]);
}

#[test]
fn derivation_orders_live_groups_by_size_then_id_and_ignores_stale_owners() {
    let ids = ["0_0", "0_1", "0_2", "0_3", "0_4"];
    let clients = vec![
        Client::new("a", 1).with_previous_active([tid("0_0")]),
        Client::new("b", 1).with_previous_active([tid("0_1"), tid("0_2"), tid("0_0")]),
        Client::new("c", 1).with_previous_active([tid("0_3"), tid("0_4")]),
    ];
    let s = state(&ids, &[], clients);
    let (_, rank) = ranks(&s);
    let p = Previous::derive(&s, &rank);
    // a owns 0_0 (first by id); b keeps 0_1, 0_2; c has 0_3, 0_4.
    assert_eq!(p.groups, vec![vec![1, 2], vec![3, 4], vec![0]]);
    assert_eq!(p.client, vec![Some(1), Some(2), Some(0)]);
    assert_eq!(p.standbys, vec![Vec::<usize>::new(); 3]);
}

#[test]
fn departed_containers_are_recognised_by_their_standby_containers() {
    // x and y departed. s1 mirrored x (0_0, 0_1), s2 and s3 mirrored y
    // (0_2); 1_0 and 1_1 are stateless, of x or y: nobody knows.
    let clients = vec![
        Client::new("a", 1).with_previous_active([tid("0_3")]),
        Client::new("s1", 1).with_previous_standby([tid("0_0"), tid("0_1")]),
        Client::new("s2", 1).with_previous_standby([tid("0_2")]),
        Client::new("s3", 1).with_previous_standby([tid("0_2")]),
        Client::new("sa", 1).with_previous_standby([tid("0_3")]),
    ];
    let s = state(&["0_0", "0_1", "0_2", "0_3"], &["1_0", "1_1"], clients);
    let (_, rank) = ranks(&s);
    let p = Previous::derive(&s, &rank);
    // Ranks: 0_0 0, 0_1 1, 0_2 2, 0_3 3, 1_0 4, 1_1 5.
    assert_eq!(p.groups, vec![vec![3], vec![0, 1], vec![2], vec![4, 5]]);
    assert_eq!(p.client, vec![Some(0), None, None, None]);
    assert_eq!(p.standbys, vec![vec![4], vec![1], vec![2, 3], vec![]]);
}

fn sites(hosts: &[&'static str]) -> Vec<Site<'static>> {
    hosts
        .iter()
        .map(|&h| Site {
            host: Host::Named(h),
            rack: None,
        })
        .collect()
}

#[test]
fn a_lost_container_fails_over_to_its_standby_client() {
    // Clients 0..4 on hosts h0..h4; slot 1's client is gone, its standby
    // container ran on client 2.
    let request = Request {
        slots: 2,
        replicas: vec![1, 1],
        active: vec![Some(1), None],
        standby: vec![vec![3], vec![2]],
    };
    let layout = bind(&sites(&["h0", "h1", "h2", "h3", "h4"]), &request);
    assert_eq!(layout.active, vec![1, 2]);
    assert_eq!(layout.standby, vec![vec![Some(3)], vec![Some(0)]]);
    assert!(layout.notes.is_empty());
}

#[test]
fn standbys_avoid_the_family_hosts_and_say_when_they_cannot() {
    let request = Request {
        slots: 1,
        replicas: vec![2],
        active: vec![Some(0)],
        standby: vec![vec![1]],
    };
    // Client 1 shares client 0's host: (0, 0) goes elsewhere.
    let layout = bind(&sites(&["h0", "h0", "h2"]), &request);
    assert_eq!(layout.active, vec![0]);
    assert_eq!(layout.standby, vec![vec![Some(2), None]]);
    assert_eq!(layout.notes.len(), 1, "{:?}", layout.notes);
    assert!(layout.notes[0].contains("0-1"), "{:?}", layout.notes);
}

#[test]
fn racks_separate_families_when_both_clients_state_one() {
    let mut s = sites(&["h0", "h1", "h2"]);
    s[0].rack = Some("r1");
    s[1].rack = Some("r1");
    let request = Request {
        slots: 1,
        replicas: vec![1],
        active: vec![Some(0)],
        standby: vec![vec![1]],
    };
    let layout = bind(&s, &request);
    assert_eq!(layout.standby, vec![vec![Some(2)]]);
}

#[test]
fn more_active_slots_than_clients_still_places_every_slot() {
    let request = Request {
        slots: 3,
        replicas: vec![0; 3],
        active: vec![None; 3],
        standby: vec![Vec::new(); 3],
    };
    let layout = bind(&sites(&["h0", "h1"]), &request);
    assert_eq!(layout.active, vec![0, 1, 0]);
    assert_eq!(layout.notes.len(), 1, "{:?}", layout.notes);
}

#[test]
fn two_containers_on_one_client_leave_the_standbys_unplaced() {
    // More containers than clients: a request the assignor never makes, but
    // the fallback must still place every active slot.
    let request = Request {
        slots: 2,
        replicas: vec![1, 1],
        active: vec![Some(0), None],
        standby: vec![vec![], vec![]],
    };
    let layout = bind(&sites(&["h0"]), &request);
    assert_eq!(layout.active, vec![0, 0]);
    assert_eq!(layout.standby, vec![vec![None], vec![None]]);
    assert_eq!(layout.notes.len(), 2, "{:?}", layout.notes);
}
