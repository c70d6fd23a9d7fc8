"""The built HTML of two Markdown dev sets, evaluated with the Markdown set's questions."""
