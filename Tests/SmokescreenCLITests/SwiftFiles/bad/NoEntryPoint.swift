import UIKit

final class Lonely: UIView {}
