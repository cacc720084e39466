"""Files a command writes or reads in bulk: `atomic` (every output file and folder, one set
of rules), `writing` (instance files in their puzzle's format) and `imports` (`twinsolve
import`: puz.link URLs and datasets to instance files)."""
