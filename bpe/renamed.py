"""Names a module renamed, still answering: the old name gives the new object, with a warning.

One name per concept (issue 49): where two classes shared a name, one was renamed, and a script
that imported the old name keeps working. A module ends with ``__getattr__ = renamed(__name__,
Old=New)`` (PEP 562: asked only for names the module does not have):

    >>> import warnings
    >>> class SampledSegmentation: ...
    >>> __getattr__ = renamed("a_module", Segmentation=SampledSegmentation)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     found = __getattr__("Segmentation")
    >>> found is SampledSegmentation, str(caught[0].message)
    (True, 'a_module.Segmentation is now SampledSegmentation')
"""

from __future__ import annotations

import warnings
from collections.abc import Callable


def renamed(module: str, **new_by_old: object) -> Callable[[str], object]:
    """``module``'s ``__getattr__``: each old name answers with its new object, warning that it was renamed."""
    def __getattr__(name: str) -> object:
        if name not in new_by_old:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new = new_by_old[name]
        warnings.warn(f"{module}.{name} is now {getattr(new, '__name__', new)}", DeprecationWarning, stacklevel=2)
        return new
    return __getattr__
