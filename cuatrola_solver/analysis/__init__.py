"""Post-game analysis: every card and call of a played hand valued double dummy and from
what its player knew (:mod:`.review`, ``analyze``), and the report to look at: the HTML
page and the graph of the win chances (:mod:`.report`)."""
