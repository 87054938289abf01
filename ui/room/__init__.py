"""The class page (issue 16): the projector's view of a class, and joining one."""
