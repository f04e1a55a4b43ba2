//! Latin and Williams squares, and the orientation of pairs.

/// The `n` rows of a Williams design for `n` treatments when `n` is even (a Latin square in
/// which every treatment immediately precedes every other exactly once), or the `2n` rows when
/// `n` is odd (the square and its mirror: every ordered pair is adjacent exactly twice).
///
/// Construction (Williams 1949; Bradley 1958): the first row is `0, 1, n-1, 2, n-2, 3, ...`;
/// row `r` adds `r` to every entry modulo `n`; for odd `n` the mirrored rows follow.
pub fn williams(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return Vec::new();
    }
    let mut first = Vec::with_capacity(n);
    first.push(0);
    let (mut lo, mut hi) = (1usize, n - 1);
    for k in 1..n {
        if k % 2 == 1 {
            first.push(lo);
            lo += 1;
        } else {
            first.push(hi);
            hi -= 1;
        }
    }
    let mut rows: Vec<Vec<usize>> = (0..n)
        .map(|r| first.iter().map(|&x| (x + r) % n).collect())
        .collect();
    if n % 2 == 1 {
        let mirrored: Vec<Vec<usize>> = rows
            .iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect();
        rows.extend(mirrored);
    }
    rows
}

/// The `n` rows of a Latin square used for positions: the first `n` rows of the Williams
/// design, so that for even `n` neighbours are balanced too. Row `r`, position `p` holds a
/// symbol; every symbol is at every position exactly once over the `n` rows.
pub fn position_square(n: usize) -> Vec<Vec<usize>> {
    let mut rows = williams(n);
    rows.truncate(n);
    rows
}

/// Orients the edges of a simple graph on `n` vertices so that every vertex's out-degree and
/// in-degree differ by at most one (an Euler orientation: odd-degree vertices are joined to a
/// virtual vertex, and each connected component is walked along an Euler circuit).
///
/// Returns, for each edge `(a, b)` in `edges`, `true` when it is oriented `a → b`.
pub fn balanced_orientation(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let virtual_vertex = n;
    // Adjacency of the augmented multigraph: (neighbour, edge index). Edges past `edges.len()`
    // are virtual.
    let mut all: Vec<(usize, usize)> = edges.to_vec();
    let mut degree = vec![0usize; n];
    for &(a, b) in edges {
        degree[a] += 1;
        degree[b] += 1;
    }
    for (v, &d) in degree.iter().enumerate() {
        if d % 2 == 1 {
            all.push((v, virtual_vertex));
        }
    }
    let mut adjacency: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n + 1];
    for (e, &(a, b)) in all.iter().enumerate() {
        adjacency[a].push((b, e));
        adjacency[b].push((a, e));
    }
    let mut used = vec![false; all.len()];
    let mut forward = vec![false; all.len()];
    let mut next = vec![0usize; n + 1];
    for start in 0..=n {
        // Hierholzer's algorithm, iteratively; each edge is oriented in the direction walked.
        let mut stack = vec![start];
        while let Some(&v) = stack.last() {
            let mut advanced = false;
            while next[v] < adjacency[v].len() {
                let (w, e) = adjacency[v][next[v]];
                next[v] += 1;
                if !used[e] {
                    used[e] = true;
                    forward[e] = all[e].0 == v;
                    stack.push(w);
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                stack.pop();
            }
        }
    }
    forward.truncate(edges.len());
    forward
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_latin(rows: &[Vec<usize>], n: usize) -> bool {
        rows.iter().all(|r| {
            let mut s = r.clone();
            s.sort_unstable();
            s == (0..n).collect::<Vec<_>>()
        }) && (0..n).all(|p| {
            let mut col: Vec<usize> = rows.iter().map(|r| r[p]).collect();
            col.sort_unstable();
            col == (0..n).collect::<Vec<_>>()
        })
    }

    #[test]
    fn williams_balances_first_order_carry_over() {
        for n in 1..=9 {
            let rows = williams(n);
            let expected_rows = if n % 2 == 0 { n } else { 2 * n };
            assert_eq!(rows.len(), expected_rows, "n={n}");
            assert!(is_latin(&rows[..n], n), "n={n}");
            let mut adjacent = vec![vec![0; n]; n];
            for r in &rows {
                for w in r.windows(2) {
                    adjacent[w[0]][w[1]] += 1;
                }
            }
            let times = if n % 2 == 0 { 1 } else { 2 };
            for (a, row) in adjacent.iter().enumerate() {
                for (b, &count) in row.iter().enumerate() {
                    let want = if a == b { 0 } else { times };
                    assert_eq!(count, want, "n={n} {a}->{b}");
                }
            }
        }
    }

    #[test]
    fn williams_for_four_is_the_textbook_square() {
        assert_eq!(
            williams(4),
            vec![
                vec![0, 1, 3, 2],
                vec![1, 2, 0, 3],
                vec![2, 3, 1, 0],
                vec![3, 0, 2, 1]
            ]
        );
    }

    #[test]
    fn orientation_is_balanced_on_complete_graphs_and_stars() {
        for n in 2..=9 {
            let complete: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            let star: Vec<(usize, usize)> = (1..n).map(|b| (0, b)).collect();
            for edges in [complete, star] {
                let o = balanced_orientation(n, &edges);
                let mut out = vec![0i64; n];
                for (&(a, b), &f) in edges.iter().zip(&o) {
                    if f {
                        out[a] += 1;
                        out[b] -= 1;
                    } else {
                        out[b] += 1;
                        out[a] -= 1;
                    }
                }
                assert!(out.iter().all(|d| d.abs() <= 1), "n={n} {out:?}");
            }
        }
    }
}
