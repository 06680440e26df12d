// Every stylesheet of the site, in cascade order: the widgets' shared layers first, then each
// widget's own, then the site around them. Imported once, by the browser entry.
import '../../widgets/shared/theme.css'
import '../../widgets/shared/cart-card.css'
import '../../widgets/shared/toast.css'
import '../../widgets/inventory/inventory-grid.css'
import '../../widgets/featured-carts/featured-carts.css'
import '../../widgets/vehicle-detail/vehicle-detail.css'
import '../../widgets/rental-plans/rental-plans.css'
import '../../widgets/payment-calculator/payment-calculator.css'
import '../../widgets/rental-request/rental-request.css'
import '../components/nj-map.css'
import './site.css'
