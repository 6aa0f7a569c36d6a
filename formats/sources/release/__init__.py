"""A v1 release (docs/release-format.md) as a source of results: the adapter
every other format is measured against. See ``adapter``."""

from formats.sources.release.adapter import RELEASE, ReleaseAdapter, ReleaseResults

__all__ = ["RELEASE", "ReleaseAdapter", "ReleaseResults"]
