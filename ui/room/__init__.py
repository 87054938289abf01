"""The class page: the projector's view of a class, and joining one."""
