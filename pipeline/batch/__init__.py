"""Batch summaries of many files (`longdoc summarize --out`): plan, run, stamped outputs.

items.py    what a batch is made of: files, options, outcomes
plan.py     which files, and where each summary goes
outputs.py  stamps, rendering, atomic writes, the manifest
runner.py   running the files, a few at a time, resumably
"""
