"""The desktop app: the only package that imports Qt. A thin layer over neardup_gui.core."""
