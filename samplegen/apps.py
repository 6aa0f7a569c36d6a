from django.apps import AppConfig


class SamplegenConfig(AppConfig):
    # No models: an app only so that its two make_sample_* commands are found.
    name = "samplegen"
    verbose_name = "Sample generators"
