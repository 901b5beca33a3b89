"""Notation: hand records in their JSON and text forms (docs/record-format.md), and
records turned into hands and views and back (:mod:`.replay`), with every error saying
where in the record it is; lines read with a bound on their length (:mod:`.lines`); a
hand taken down as it is played at a table (:mod:`.hand_entry`) and the match sheet of
its hands (:mod:`.match_sheet`), written whole or not at all (:mod:`.atomic`)."""
