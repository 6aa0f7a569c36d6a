from benchview.cli import main

raise SystemExit(main())
