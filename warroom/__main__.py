"""``python -m warroom``: the same command line as the ``warroom`` console script."""

from warroom.cli import main

if __name__ == "__main__":
    main()
