"""Strict query-parameter parsing: a value that is not exactly a boolean or a
number is a 400 naming the parameter, never silently ignored."""

from __future__ import annotations

import django_filters
from django import forms

TRUE = {"true", "1"}
FALSE = {"false", "0"}


class StrictBooleanField(forms.Field):
    def to_python(self, value):
        if value in (None, ""):
            return None
        lowered = str(value).strip().lower()
        if lowered in TRUE:
            return True
        if lowered in FALSE:
            return False
        raise forms.ValidationError(
            f"{value!r} is not a boolean: use true or false (or 1 or 0).", code="invalid"
        )


class StrictBooleanFilter(django_filters.Filter):
    field_class = StrictBooleanField


class FiniteNumberFilter(django_filters.NumberFilter):
    """A number (Decimal), rejecting NaN and infinities with the parameter named."""

    field_class = forms.FloatField


class IntegerFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField
