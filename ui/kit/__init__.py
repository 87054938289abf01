"""Shared by every lesson: text that is safe to show, bounded caches, guarded events and pages.

The lessons import from here; nothing here imports a lesson.
"""
