"""What the module's classes share."""

__all__ = ["without_init"]


def without_init(cls, **attributes):
    """An instance of ``cls`` made without ``__init__``, which checks a user's arguments: for values
    the extension already made (a topology reference, a loaded schedule), set as ``attributes``."""
    instance = cls.__new__(cls)
    for name, value in attributes.items():
        setattr(instance, name, value)
    return instance
