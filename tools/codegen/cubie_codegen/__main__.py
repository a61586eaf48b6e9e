import sys

from cubie_codegen.cli import main

sys.exit(main())
