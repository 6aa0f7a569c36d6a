"""Turning untrusted evidence (outputs, JSON, patches) into safe, readable HTML."""
