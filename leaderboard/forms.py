"""Forms that read a page's query string (all list state lives there, so any view is a link)."""

from __future__ import annotations

from django import forms


class ValuesField(forms.Field):
    """A repeatable parameter (``?surface=a&surface=b``) as a list of strings.

    Any value is accepted: one that names nothing simply matches nothing, as a
    link with a stale slug should. An empty value is no value: a form's "any"
    choice sends ``?harness=``, which asks for no filter, not for the harness
    called "" (it used to empty the matrix)."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value) -> list[str]:
        return [str(v) for v in value if str(v).strip()] if value else []


class PageField(forms.CharField):
    """A page number as ``int()`` reads it; below 1 it is page 1, and past the
    last page the paginator gives the last one."""

    def to_python(self, value) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            return max(int(text), 1)
        except ValueError:
            raise forms.ValidationError("Enter a page number.", code="invalid") from None


class MatrixQuery(forms.Form):
    """The matrix page's query string: filters, sort and task page.

    A value the form cannot read (an unknown sort, ``released=yes``, a page
    that is not a number) falls back to its default instead of failing the
    page: ``values()`` gives every field, read or defaulted."""

    surface = ValuesField(required=False)
    harness = ValuesField(required=False)
    model = ValuesField(required=False)
    task = ValuesField(required=False)
    # Only "1" asks for released tasks (the page's checkbox sends it).
    released = forms.TypedChoiceField(
        choices=[("1", "released tasks only")],
        coerce=lambda value: value == "1",
        empty_value=False,
        required=False,
    )
    sort = forms.ChoiceField(required=False)
    page = PageField(required=False, strip=False)

    def __init__(self, data, *, sorts: list[str], default_sort: str):
        super().__init__(data)
        self.fields["sort"].choices = [(key, key) for key in sorts]
        self.default_sort = default_sort

    def values(self) -> dict:
        """Every parameter: its cleaned value, or its default when unreadable."""
        self.is_valid()
        found = {
            "surface": [],
            "harness": [],
            "model": [],
            "task": [],
            "released": False,
            "sort": self.default_sort,
            "page": 1,
        }
        found.update((k, v) for k, v in self.cleaned_data.items() if v not in ("", None))
        return found
