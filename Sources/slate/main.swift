import Foundation
import SlateCLI

exit(SlateCommandLine.main())
