//! A handle on a game's rules that a position can hold: the registry's
//! rules live for the whole process, but rules built for reprogrammed Super
//! Chess pieces are made at run time, one set per pair of programs, and must
//! be freed when no game uses them any more.

use crate::rules::Rules;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// The rules of a game: the registry's (`&'static`), or rules built at run
/// time and shared by the positions that use them. Cloning is cheap.
#[derive(Clone)]
pub struct SharedRules(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static Rules),
    Built(Arc<Rules>),
}

impl SharedRules {
    /// Rules built at run time.
    pub fn built(rules: Rules) -> SharedRules {
        SharedRules(Repr::Built(Arc::new(rules)))
    }

    /// How many handles hold these rules, if they were built at run time
    /// (`None` for the registry's, which live for ever): when the last one
    /// goes, the rules are freed.
    pub fn holders(&self) -> Option<usize> {
        match &self.0 {
            Repr::Static(_) => None,
            Repr::Built(r) => Some(Arc::strong_count(r)),
        }
    }

    /// Whether both handles hold the very same rules (not merely equal ones).
    pub fn same(&self, other: &SharedRules) -> bool {
        std::ptr::eq::<Rules>(&**self, &**other)
    }
}

impl Deref for SharedRules {
    type Target = Rules;
    #[inline]
    fn deref(&self) -> &Rules {
        match &self.0 {
            Repr::Static(r) => r,
            Repr::Built(r) => r,
        }
    }
}

impl From<&'static Rules> for SharedRules {
    fn from(rules: &'static Rules) -> SharedRules {
        SharedRules(Repr::Static(rules))
    }
}

impl From<Arc<Rules>> for SharedRules {
    fn from(rules: Arc<Rules>) -> SharedRules {
        SharedRules(Repr::Built(rules))
    }
}

impl fmt::Debug for SharedRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SharedRules").field(&self.name()).finish()
    }
}
