"""The job's options from a command line (no Spark needed): ``--reports`` names some of the reports, in any
order and case, and anything else is refused with the names it takes, as the options a program builds are."""

from __future__ import annotations

import argparse

import pytest

from neardup_gui.spark.cli import reports_list
from neardup_gui.spark.records import REPORTS, JobOptions


def test_reports_are_named_in_any_order_and_written_in_the_jobs():
    assert reports_list("HTML, json") == ("json", "html")
    assert reports_list("csv,csv,") == ("csv",)
    assert JobOptions("in", "out").reports == REPORTS == reports_list("json,csv,html")


@pytest.mark.parametrize("given", ["", " , ", "json,pdf", "reports"])
def test_a_report_that_is_not_one_of_them_is_refused(given):
    with pytest.raises(argparse.ArgumentTypeError, match="name one or more of json, csv, html"):
        reports_list(given)
    with pytest.raises(ValueError, match="reports must name some of json, csv, html"):
        JobOptions("in", "out", reports=tuple(given.split(",")))
