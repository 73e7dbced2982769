package core

import ()
