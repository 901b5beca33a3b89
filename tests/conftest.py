import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))

# The history database of the commands run by the tests (cuatrola serve keeps its hands
# there) is a temporary file, never the user's (cuatrola_solver/history/database.py)
os.environ["CUATROLA_HISTORY_DB"] = os.path.join(
    tempfile.mkdtemp(prefix="cuatrola-tests-history-"), "history.sqlite3")
