"""mypyc's class options, for the compiled build; in pure Python (and wherever mypy is not
installed) ``mypyc_attr`` leaves a class as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["mypyc_attr"]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: Any, **options: Any) -> Any:
        """No options outside mypyc: the class is returned as it is."""
        return lambda cls: cls
