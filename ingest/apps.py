from django.apps import AppConfig


class IngestConfig(AppConfig):
    name = "ingest"
    verbose_name = "Release imports"

    def ready(self) -> None:
        # Harbor's reading checks values against the site's column sizes, so it
        # is registered here rather than on the ground floor (formats).
        from formats.sources.registry import ADAPTERS
        from ingest.reading.harbor.adapter import HARBOR

        ADAPTERS.setdefault(HARBOR.name, HARBOR)
