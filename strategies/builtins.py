"""The built-in fast strategies (registered on import)."""
import simcore.fast.strategies  # noqa: F401 - registers random and greedy
