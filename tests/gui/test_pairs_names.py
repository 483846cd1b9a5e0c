"""Two files of one name in the Pairs tab: the ends of their folders that tell them apart."""

from neardup_gui.gui.pairs_page import telling_ends


def test_the_shortest_ends_of_two_folders_that_differ():
    assert telling_ends("/home/x/Legal", "/home/x/Downloads") == ("Legal", "Downloads")
    assert telling_ends("/a/Legal", "/b/Legal") == ("a/Legal", "b/Legal")  # one folder name is not enough
    assert telling_ends("/", "/srv") == ("/", "/srv")  # the top of the tree: said whole
    assert telling_ends("/x/Legal", "/x/Legal") == ("/x/Legal", "/x/Legal")
