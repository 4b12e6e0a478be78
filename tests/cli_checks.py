"""Assertions shared by the CLI tests."""
from __future__ import annotations


def assert_one_line_error(result, *words: str) -> None:
    """Bad input: exit code 2, a single line naming the problem, no traceback."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]
