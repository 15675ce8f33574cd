"""The pit boss's audit application, its pure part (docs/PITBOSS.md): roles and
what each may do, the hand-search filter and the port the searches implement, a hand's detail,
its step-by-step replay, and the dispute recompute. No Qt, no database."""
