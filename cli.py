"""The `dreamscape` command line (placeholder; filled in below)."""
import typer

app = typer.Typer()
