import sys

from conformance.open_points.catalogue import main

sys.exit(main())
