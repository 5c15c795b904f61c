//! Counterfactual blame: which of several rules a wrong recorded value neglected.
//!
//! Several rules feed one number (a damage gets an ailment's -1, a bonus, Accuracy). When
//! the recorded value differs from the derived one, the value is recomputed on copies of
//! the state where one rule's part is undone; the first rule whose neglect gives exactly
//! the recorded value is the one the log ignored. If none does, the broad rule stands.

/// The first candidate whose neglect reproduces `recorded`. `without` builds the state as
/// if a log ignored one rule (`None` when that rule plays no part in this state); `value`
/// recomputes the number on it.
pub fn first_explaining<S, R: Copy, T: PartialEq>(
    s: &S,
    candidates: &[R],
    recorded: &T,
    without: impl Fn(&S, R) -> Option<S>,
    value: impl Fn(&S) -> Option<T>,
) -> Option<R> {
    candidates.iter().copied().find(|&r| without(s, r).is_some_and(|t| value(&t).as_ref() == Some(recorded)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rule_whose_neglect_gives_the_record_is_blamed() {
        // damage = base 6 + bonus 1 - weak 1 = 6; recorded 7: weak was ignored.
        #[derive(Clone)]
        struct S {
            bonus: i32,
            weak: i32,
        }
        let s = S { bonus: 1, weak: 1 };
        let without = |s: &S, r: &str| {
            let mut t = s.clone();
            match r {
                "bonus" => t.bonus = 0,
                "weak" => t.weak = 0,
                _ => return None,
            }
            Some(t)
        };
        let value = |s: &S| Some(6 + s.bonus - s.weak);
        assert_eq!(first_explaining(&s, &["bonus", "weak"], &7, without, value), Some("weak"));
        assert_eq!(first_explaining(&s, &["bonus", "weak"], &5, without, value), Some("bonus"));
        assert_eq!(first_explaining(&s, &["bonus", "weak"], &9, without, value), None);
    }
}
