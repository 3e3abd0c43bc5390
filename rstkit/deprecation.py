"""Old spellings of the public API, kept working for one release with a DeprecationWarning that
points at the caller's line and names the new spelling. Imports nothing from rstkit."""
from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])


def renamed_keywords(**renames: str) -> Callable[[_F], _F]:
    """A decorator: each keyword ``old=new`` of ``renames`` is still accepted as ``old`` (warned)."""
    def decorate(function: _F) -> _F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__qualname__}() got both {old}= and {new}=: give {new}=")
                    warnings.warn(f"{function.__qualname__}({old}=...) is deprecated: call it with {new}=",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate


def deprecated_alias(function: Callable[..., Any], old: str, new: str) -> Callable[..., Any]:
    """``function`` under its old name ``old``, warning that ``new`` is its name now."""
    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=2)
        return function(*args, **kwargs)
    alias.__name__ = alias.__qualname__ = old.rpartition(".")[2]
    return alias


def callable_module(name: str, function: Callable[..., Any], old: str, new: str) -> None:
    """Let module ``name`` be called as the function it once was (``rstkit.audit(...)``): the call
    warns and runs ``function``; the module stays a module for imports and attributes."""
    module = sys.modules[name]

    class _CallableModule(ModuleType):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            warnings.warn(f"calling {old}(...) is deprecated: {old} is a module; call {new}(...)",
                          DeprecationWarning, stacklevel=2)
            return function(*args, **kwargs)

    module.__class__ = _CallableModule
