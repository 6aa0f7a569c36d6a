"""Sources of results: one folder per format, each read by content."""
