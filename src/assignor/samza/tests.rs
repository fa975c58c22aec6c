//! Unit tests of the two levels on their own: Samza's
//! `TestGroupByContainerCount` vectors on the balance step (tasks by rank:
//! `Partition 0..8` sort as their numbers), the derivation of the previous
//! layout, and the placement's failover and fallback.

use crate::model::ix::positions;
use crate::model::{
    AssignmentConfig, Client, ClientIx, ClusterState, Ix, IxVec, Task, TaskId, TaskIx,
};

use super::grouping::{balance, name_order, quota, ranks as ranks_of, round_robin, Groups};
use super::placement::{bind, Host, Hosts, Layout, Request, Site};
use super::positions::{Rank, SlotIx};
use super::previous::Previous;

/// The plain numbers of some positions, to compare with literals.
fn raw<I: Ix>(positions: &[I]) -> Vec<usize> {
    positions.iter().map(|p| p.index()).collect()
}

/// The groups of a grouping as plain numbers.
fn raw_groups(groups: &Groups) -> Vec<Vec<usize>> {
    raw_groups_of(groups)
}

/// Lists of positions per slot as plain numbers.
fn raw_groups_of<I: Ix>(lists: &IxVec<SlotIx, Vec<I>>) -> Vec<Vec<usize>> {
    lists.iter().map(|g| raw(g)).collect()
}

/// The previous standby containers of each slot as plain client numbers.
fn raw_standby_lists(p: &Previous) -> Vec<Vec<usize>> {
    p.standbys
        .iter()
        .map(|s| s.iter().flatten().map(|c| c.index()).collect())
        .collect()
}

/// A grouping from plain ranks.
fn groups(raw: Vec<Vec<usize>>) -> Groups {
    raw.into_iter()
        .map(|g| g.into_iter().map(Rank::from_position).collect())
        .collect()
}

fn client(i: usize) -> ClientIx {
    ClientIx::from_position(i)
}

/// The clients of some slots as plain numbers.
fn raw_clients(clients: &[Option<ClientIx>]) -> Vec<Option<usize>> {
    clients.iter().map(|c| c.map(ClientIx::index)).collect()
}

/// The standby slots of a layout as plain client numbers.
fn raw_standbys(layout: &Layout) -> Vec<Vec<Option<usize>>> {
    layout.standby.iter().map(|s| raw_clients(s)).collect()
}

/// A request from plain client numbers.
fn request(replicas: Vec<usize>, active: Vec<Option<usize>>, standby: Vec<Vec<usize>>) -> Request {
    Request {
        slots: replicas.len(),
        replicas: IxVec::from_raw(replicas),
        lost: active.iter().map(Option::is_none).collect(),
        active: active.into_iter().map(|c| c.map(client)).collect(),
        standby: standby
            .into_iter()
            .map(|s| s.into_iter().map(|c| Some(client(c))).collect())
            .collect(),
    }
}

fn tid(s: &str) -> TaskId {
    s.parse().expect("test task id")
}

/// [`round_robin`] in plain ranks.
fn rr(tasks: usize, n: usize) -> Vec<Vec<usize>> {
    raw_groups(&round_robin(tasks, n))
}

/// [`balance`] in plain ranks.
fn bal(previous: &[Vec<usize>], tasks: usize, n: usize) -> Vec<Vec<usize>> {
    raw_groups(&balance(&groups(previous.to_vec()), tasks, n))
}

fn sorted(mut groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for g in &mut groups {
        g.sort_unstable();
    }
    groups
}

#[test]
fn quotas_give_the_remainder_to_the_lowest_ids() {
    let q: Vec<usize> = positions::<SlotIx>(5).map(|i| quota(i, 10, 4)).collect();
    assert_eq!(q, vec![3, 3, 2, 2, 0]);
}

#[test]
fn round_robin_deals_ranks() {
    assert_eq!(
        rr(5, 2),
        vec![vec![0, 2, 4], vec![1, 3]],
        "testGroupHappyPath"
    );
}

#[test]
fn spec_vector_grow_to_four_and_back_to_three() {
    // `GroupByContainerCount`'s balance example (docs/algorithms.md,
    // *Samza: worked examples*): T00..T09, previous RR over 3.
    let previous = rr(10, 3);
    assert_eq!(
        previous,
        vec![vec![0, 3, 6, 9], vec![1, 4, 7], vec![2, 5, 8]]
    );
    let grown = bal(&previous, 10, 4);
    assert_eq!(
        grown,
        vec![vec![0, 3, 6], vec![1, 4, 7], vec![2, 5], vec![8, 9]]
    );
    assert_eq!(bal(&grown, 10, 3), previous);
}

#[test]
fn balancer_after_container_increase() {
    let grown = bal(&rr(9, 2), 9, 4);
    assert_eq!(
        grown,
        vec![vec![0, 2, 4], vec![1, 3], vec![6, 8], vec![5, 7]]
    );
}

#[test]
fn balancer_after_container_decrease_and_again() {
    let previous = rr(9, 4);
    assert_eq!(
        bal(&previous, 9, 2),
        vec![vec![0, 2, 4, 6, 8], vec![1, 3, 5, 7]]
    );
    // testBalancerMultipleReblances' second step reads the 4-container mapping.
    assert_eq!(
        bal(&previous, 9, 3),
        vec![vec![0, 4, 8], vec![1, 5, 7], vec![2, 3, 6]]
    );
}

#[test]
fn same_count_keeps_even_an_unbalanced_grouping() {
    let previous = rr(9, 2);
    assert_eq!(bal(&previous, 9, 2), previous);
    let custom = vec![vec![0, 1, 2, 3, 4, 5], vec![6, 7, 8]];
    assert_eq!(bal(&custom, 9, 2), custom);
}

#[test]
fn custom_grouping_with_container_increase() {
    let custom = vec![vec![0], vec![1, 2, 3, 4, 5]];
    assert_eq!(
        sorted(bal(&custom, 6, 3)),
        vec![vec![0, 5], vec![1, 2], vec![3, 4]]
    );
}

#[test]
fn one_old_or_one_new_container_falls_back_to_rr() {
    assert_eq!(bal(&rr(3, 1), 3, 3), rr(3, 3));
    assert_eq!(bal(&rr(3, 3), 3, 1), vec![vec![0, 1, 2]]);
}

fn state(tasks: &[&str], stateless: &[&str], clients: Vec<Client>) -> ClusterState {
    let mut all: Vec<Task> = tasks.iter().map(|s| Task::stateful(tid(s), 100)).collect();
    all.extend(stateless.iter().map(|s| Task::stateless(tid(s))));
    ClusterState::new(AssignmentConfig::default(), all, clients).expect("valid test state")
}

fn ranks(state: &ClusterState) -> (IxVec<Rank, TaskIx>, IxVec<TaskIx, Rank>) {
    let order = name_order(state);
    let rank = ranks_of(&order);
    (order, rank)
}

#[test]
fn names_sort_as_strings() {
    let ids = ["0_2", "0_10", "1_0", "10_0", "0_1"];
    let s = state(&ids, &[], vec![Client::new("a", 1)]);
    let (order, _) = ranks(&s);
    let names: Vec<String> = order
        .iter()
        .map(|&t| s.tasks()[t.index()].id.to_string())
        .collect();
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
    assert_eq!(raw_groups(&p.groups), vec![vec![1, 2], vec![3, 4], vec![0]]);
    assert_eq!(
        raw_clients(p.client.as_raw()),
        vec![Some(1), Some(2), Some(0)]
    );
    assert_eq!(raw_standby_lists(&p), vec![Vec::<usize>::new(); 3]);
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
    assert_eq!(
        raw_groups(&p.groups),
        vec![vec![3], vec![0, 1], vec![2], vec![4, 5]]
    );
    assert_eq!(
        raw_clients(p.client.as_raw()),
        vec![Some(0), None, None, None]
    );
    assert_eq!(
        raw_standby_lists(&p),
        vec![vec![4], vec![1], vec![2, 3], vec![]]
    );
}

#[test]
fn a_standby_container_mirrors_more_than_half_of_its_container() {
    // a ran 0_0..0_3; b mirrored it (all four), c keeps one store left
    // behind (0_0), d two of four (not more than half).
    let ids = ["0_0", "0_1", "0_2", "0_3"];
    let all = ids.map(tid);
    let clients = vec![
        Client::new("a", 1).with_previous_active(all),
        Client::new("b", 1).with_previous_standby(all),
        Client::new("c", 1).with_previous_standby([tid("0_0")]),
        Client::new("d", 1).with_previous_standby([tid("0_0"), tid("0_1")]),
    ];
    let s = state(&ids, &[], clients);
    let (_, rank) = ranks(&s);
    let p = Previous::derive(&s, &rank);
    assert_eq!(raw_standby_lists(&p), vec![vec![1]]);
}

fn sites(hosts: &[&'static str]) -> Hosts<'static> {
    Hosts {
        sites: hosts
            .iter()
            .map(|&h| Site {
                host: Host::Named(h),
                rack: None,
            })
            .collect(),
        fault_domains: false,
    }
}

#[test]
fn a_fresh_layout_puts_each_standby_container_on_the_next_client() {
    // Four clients, R = 3: i-0 on client i + 1, i-1 on client i + 2 (mod 4).
    let request = request(vec![2; 4], vec![None; 4], vec![Vec::new(); 4]);
    let layout = bind(&sites(&["h0", "h1", "h2", "h3"]), &request);
    assert_eq!(raw(layout.active.as_raw()), vec![0, 1, 2, 3]);
    assert_eq!(
        raw_standbys(&layout),
        vec![
            vec![Some(1), Some(2)],
            vec![Some(2), Some(3)],
            vec![Some(3), Some(0)],
            vec![Some(0), Some(1)],
        ]
    );
    assert!(layout.notes.is_empty());
}

#[test]
fn a_lost_container_fails_over_to_its_standby_client() {
    // Clients 0..4 on hosts h0..h4; container 1's client is gone, its standby
    // container 1-0 ran on client 2, which also runs container 2. 1-0 is
    // displaced to the least-loaded client apart from 2: client 4.
    let request = request(
        vec![1, 1, 1],
        vec![Some(1), None, Some(2)],
        vec![vec![3], vec![2], vec![0]],
    );
    let layout = bind(&sites(&["h0", "h1", "h2", "h3", "h4"]), &request);
    assert_eq!(raw(layout.active.as_raw()), vec![1, 2, 2]);
    assert_eq!(
        raw_standbys(&layout),
        vec![vec![Some(3)], vec![Some(4)], vec![Some(0)]]
    );
    assert!(layout.notes.is_empty());
}

#[test]
fn standbys_avoid_the_family_hosts_and_say_when_they_cannot() {
    let request = request(vec![2], vec![Some(0)], vec![vec![1]]);
    // Client 1 shares client 0's host: 0-0 goes elsewhere, 0-1 finds none.
    let layout = bind(&sites(&["h0", "h0", "h2"]), &request);
    assert_eq!(raw(layout.active.as_raw()), vec![0]);
    assert_eq!(raw_standbys(&layout), vec![vec![Some(2), None]]);
    assert_eq!(layout.notes.len(), 1, "{:?}", layout.notes);
    assert!(layout.notes[0].contains("0-1"), "{:?}", layout.notes);
}

#[test]
fn racks_separate_families_only_with_fault_domains_on() {
    let mut hosts = sites(&["h0", "h1", "h2"]);
    hosts.sites[client(0)].rack = Some("r1");
    hosts.sites[client(1)].rack = Some("r1");
    let request = request(vec![1], vec![Some(0)], vec![vec![1]]);
    assert_eq!(raw_standbys(&bind(&hosts, &request)), vec![vec![Some(1)]]);
    hosts.fault_domains = true;
    assert_eq!(raw_standbys(&bind(&hosts, &request)), vec![vec![Some(2)]]);
}

#[test]
fn more_active_containers_than_clients_share_the_clients() {
    // More containers than clients: a request the assignor never makes.
    let request = request(vec![0; 3], vec![None; 3], vec![Vec::new(); 3]);
    let layout = bind(&sites(&["h0", "h1"]), &request);
    assert_eq!(raw(layout.active.as_raw()), vec![0, 1, 0]);
    assert!(layout.notes.is_empty());
}

#[test]
fn one_client_leaves_every_standby_container_unplaced() {
    let request = request(vec![1, 1], vec![Some(0), None], vec![vec![], vec![]]);
    let layout = bind(&sites(&["h0"]), &request);
    assert_eq!(raw(layout.active.as_raw()), vec![0, 0]);
    assert_eq!(raw_standbys(&layout), vec![vec![None], vec![None]]);
    assert_eq!(layout.notes.len(), 1, "{:?}", layout.notes);
    assert!(layout.notes[0].contains("0-0, 1-0"), "{:?}", layout.notes);
}
