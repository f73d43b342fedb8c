// Recipe Browser: searchable recipe cards with cuisine and diet filters, favourites, a detail view and a servings scaler
import { useState, useMemo, useEffect } from 'react';
import { Search, Clock, Users, Heart, ChefHat, X, Flame, Minus, Plus, Leaf, ShoppingBasket } from 'lucide-react';

const RECIPES = [
  {
    id: 'r1', title: 'Lemon Herb Roast Chicken', cuisine: 'French', minutes: 75, servings: 4, calories: 520, diet: ['gluten-free'], difficulty: 'Medium',
    color: 'from-amber-200 to-orange-300', emoji: '🍗',
    ingredients: [{ name: 'whole chicken', qty: 1.6, unit: 'kg' }, { name: 'lemon', qty: 2, unit: '' }, { name: 'garlic cloves', qty: 6, unit: '' }, { name: 'fresh thyme', qty: 8, unit: 'sprigs' }, { name: 'olive oil', qty: 3, unit: 'tbsp' }],
    steps: ['Heat the oven to 220°C.', 'Stuff the chicken with halved lemons, garlic and thyme.', 'Rub with oil and season generously.', 'Roast for 60–70 minutes until the juices run clear.', 'Rest 10 minutes before carving.'],
  },
  {
    id: 'r2', title: 'Chickpea Coconut Curry', cuisine: 'Indian', minutes: 35, servings: 4, calories: 410, diet: ['vegan', 'gluten-free'], difficulty: 'Easy',
    color: 'from-yellow-200 to-amber-400', emoji: '🍛',
    ingredients: [{ name: 'chickpeas (cooked)', qty: 480, unit: 'g' }, { name: 'coconut milk', qty: 400, unit: 'ml' }, { name: 'onion', qty: 1, unit: '' }, { name: 'curry paste', qty: 2, unit: 'tbsp' }, { name: 'spinach', qty: 100, unit: 'g' }],
    steps: ['Soften the diced onion in a little oil.', 'Stir in curry paste and cook for a minute.', 'Add chickpeas and coconut milk; simmer 15 minutes.', 'Wilt in the spinach and serve with rice.'],
  },
  {
    id: 'r3', title: 'Miso Glazed Salmon', cuisine: 'Japanese', minutes: 25, servings: 2, calories: 460, diet: ['dairy-free'], difficulty: 'Easy',
    color: 'from-rose-200 to-orange-200', emoji: '🐟',
    ingredients: [{ name: 'salmon fillets', qty: 2, unit: '' }, { name: 'white miso', qty: 2, unit: 'tbsp' }, { name: 'mirin', qty: 1, unit: 'tbsp' }, { name: 'honey', qty: 1, unit: 'tsp' }],
    steps: ['Whisk miso, mirin and honey.', 'Brush over the salmon and marinate 10 minutes.', 'Grill for 8 minutes until caramelised.'],
  },
  {
    id: 'r4', title: 'Wild Mushroom Risotto', cuisine: 'Italian', minutes: 45, servings: 3, calories: 580, diet: ['vegetarian', 'gluten-free'], difficulty: 'Medium',
    color: 'from-stone-200 to-amber-200', emoji: '🍄',
    ingredients: [{ name: 'arborio rice', qty: 300, unit: 'g' }, { name: 'mixed mushrooms', qty: 250, unit: 'g' }, { name: 'vegetable stock', qty: 1, unit: 'l' }, { name: 'parmesan', qty: 60, unit: 'g' }, { name: 'butter', qty: 30, unit: 'g' }],
    steps: ['Sauté mushrooms until golden, then set aside.', 'Toast the rice in butter.', 'Add hot stock a ladle at a time, stirring, for 18 minutes.', 'Fold in mushrooms and parmesan.'],
  },
  {
    id: 'r5', title: 'Black Bean Tacos', cuisine: 'Mexican', minutes: 20, servings: 4, calories: 390, diet: ['vegan'], difficulty: 'Easy',
    color: 'from-lime-200 to-emerald-300', emoji: '🌮',
    ingredients: [{ name: 'black beans', qty: 400, unit: 'g' }, { name: 'corn tortillas', qty: 8, unit: '' }, { name: 'avocado', qty: 1, unit: '' }, { name: 'lime', qty: 1, unit: '' }, { name: 'red cabbage', qty: 150, unit: 'g' }],
    steps: ['Warm beans with cumin and smoked paprika.', 'Char the tortillas in a dry pan.', 'Top with beans, sliced avocado, cabbage and lime.'],
  },
  {
    id: 'r6', title: 'Classic Margherita Pizza', cuisine: 'Italian', minutes: 90, servings: 2, calories: 720, diet: ['vegetarian'], difficulty: 'Hard',
    color: 'from-red-200 to-rose-300', emoji: '🍕',
    ingredients: [{ name: 'pizza dough', qty: 300, unit: 'g' }, { name: 'passata', qty: 120, unit: 'ml' }, { name: 'mozzarella', qty: 125, unit: 'g' }, { name: 'basil leaves', qty: 10, unit: '' }],
    steps: ['Prove the dough for an hour.', 'Stretch thinly and spread with passata.', 'Top with torn mozzarella.', 'Bake at the highest oven setting for 8–10 minutes; finish with basil.'],
  },
  {
    id: 'r7', title: 'Thai Peanut Noodle Salad', cuisine: 'Thai', minutes: 15, servings: 2, calories: 480, diet: ['vegan', 'dairy-free'], difficulty: 'Easy',
    color: 'from-orange-200 to-yellow-200', emoji: '🥜',
    ingredients: [{ name: 'rice noodles', qty: 150, unit: 'g' }, { name: 'peanut butter', qty: 3, unit: 'tbsp' }, { name: 'soy sauce', qty: 2, unit: 'tbsp' }, { name: 'cucumber', qty: 1, unit: '' }, { name: 'carrot', qty: 1, unit: '' }],
    steps: ['Soak the noodles and drain.', 'Whisk peanut butter, soy, lime and warm water.', 'Toss with shredded vegetables and noodles.'],
  },
];

const DIETS = ['vegan', 'vegetarian', 'gluten-free', 'dairy-free'];

function formatQty(q) {
  if (q >= 10) return Math.round(q).toString();
  return (Math.round(q * 4) / 4).toString();
}

function useDebounced(value, delay) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(id);
  }, [value, delay]);
  return debounced;
}

function RecipeModal({ recipe, onClose, isFavourite, onToggleFavourite, onAddToList }) {
  const [servings, setServings] = useState(recipe.servings);
  const factor = servings / recipe.servings;

  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-30 bg-black/50 flex items-center justify-center p-6" onClick={onClose}>
      <div className="bg-white rounded-2xl max-w-2xl w-full max-h-[90vh] overflow-y-auto" onClick={(e) => e.stopPropagation()}>
        <div className={`h-40 bg-gradient-to-br ${recipe.color} flex items-center justify-center text-7xl relative`}>
          {recipe.emoji}
          <button onClick={onClose} className="absolute top-3 right-3 bg-white/80 rounded-full p-1.5" aria-label="Close"><X className="w-4 h-4" /></button>
        </div>
        <div className="p-6">
          <div className="flex items-start justify-between">
            <div>
              <h2 className="text-2xl font-bold">{recipe.title}</h2>
              <p className="text-sm text-gray-500">{recipe.cuisine} · {recipe.difficulty} · {recipe.minutes} min · {Math.round(recipe.calories)} kcal per serving</p>
            </div>
            <button onClick={() => onToggleFavourite(recipe.id)} className={`p-2 rounded-full ${isFavourite ? 'text-rose-500 bg-rose-50' : 'text-gray-400 bg-gray-100'}`} aria-label="Favourite">
              <Heart className={`w-5 h-5 ${isFavourite ? 'fill-current' : ''}`} />
            </button>
          </div>
          <div className="grid grid-cols-2 gap-6 mt-6">
            <div>
              <div className="flex items-center justify-between mb-2">
                <h3 className="font-semibold">Ingredients</h3>
                <div className="flex items-center gap-2 text-sm">
                  <button onClick={() => setServings((s) => Math.max(1, s - 1))} className="p-1 rounded bg-gray-100" aria-label="Fewer servings"><Minus className="w-3 h-3" /></button>
                  <span>{servings} servings</span>
                  <button onClick={() => setServings((s) => Math.min(12, s + 1))} className="p-1 rounded bg-gray-100" aria-label="More servings"><Plus className="w-3 h-3" /></button>
                </div>
              </div>
              <ul className="text-sm space-y-1">
                {recipe.ingredients.map((ing) => (
                  <li key={ing.name} className="flex justify-between border-b border-dashed border-gray-200 py-1">
                    <span>{ing.name}</span>
                    <span className="text-gray-500">{formatQty(ing.qty * factor)} {ing.unit}</span>
                  </li>
                ))}
              </ul>
              <button onClick={() => onAddToList(recipe, factor)} className="mt-3 text-sm flex items-center gap-1 text-emerald-700 hover:underline">
                <ShoppingBasket className="w-4 h-4" /> Add to shopping list
              </button>
            </div>
            <div>
              <h3 className="font-semibold mb-2">Method</h3>
              <ol className="text-sm space-y-2 list-decimal list-inside text-gray-700">
                {recipe.steps.map((s) => <li key={s}>{s}</li>)}
              </ol>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

export default function App() {
  const [query, setQuery] = useState('');
  const [cuisine, setCuisine] = useState('All');
  const [diets, setDiets] = useState([]);
  const [maxMinutes, setMaxMinutes] = useState(120);
  const [favourites, setFavourites] = useState(['r2']);
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const [openId, setOpenId] = useState(null);
  const [shopping, setShopping] = useState([]);
  const debouncedQuery = useDebounced(query, 250);

  const cuisines = useMemo(() => ['All', ...Array.from(new Set(RECIPES.map((r) => r.cuisine))).sort()], []);

  const results = useMemo(() => {
    const q = debouncedQuery.trim().toLowerCase();
    return RECIPES.filter((r) => {
      if (cuisine !== 'All' && r.cuisine !== cuisine) return false;
      if (r.minutes > maxMinutes) return false;
      if (onlyFavourites && !favourites.includes(r.id)) return false;
      if (!diets.every((d) => r.diet.includes(d))) return false;
      if (!q) return true;
      return r.title.toLowerCase().includes(q) || r.ingredients.some((i) => i.name.includes(q));
    });
  }, [debouncedQuery, cuisine, diets, maxMinutes, onlyFavourites, favourites]);

  const toggleFavourite = (id) => setFavourites((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));
  const toggleDiet = (d) => setDiets((prev) => (prev.includes(d) ? prev.filter((x) => x !== d) : [...prev, d]));

  const addToList = (recipe, factor) => {
    setShopping((prev) => {
      const next = [...prev];
      recipe.ingredients.forEach((ing) => {
        const existing = next.find((x) => x.name === ing.name && x.unit === ing.unit);
        if (existing) existing.qty += ing.qty * factor;
        else next.push({ name: ing.name, unit: ing.unit, qty: ing.qty * factor });
      });
      return next.map((x) => ({ ...x }));
    });
  };

  const openRecipe = RECIPES.find((r) => r.id === openId);

  return (
    <div className="min-h-screen bg-orange-50/40">
      <header className="bg-white border-b border-orange-100">
        <div className="max-w-6xl mx-auto px-6 py-5 flex items-center gap-6">
          <h1 className="text-2xl font-extrabold text-orange-600 flex items-center gap-2"><ChefHat className="w-7 h-7" /> Pantry</h1>
          <div className="relative flex-1">
            <Search className="w-4 h-4 absolute left-3 top-3 text-gray-400" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search recipes or ingredients…" className="w-full pl-9 pr-4 py-2.5 rounded-full border border-gray-200 focus:outline-none focus:ring-2 focus:ring-orange-300" />
          </div>
          <button onClick={() => setOnlyFavourites((v) => !v)} className={`flex items-center gap-1 px-4 py-2 rounded-full text-sm font-medium ${onlyFavourites ? 'bg-rose-500 text-white' : 'bg-rose-50 text-rose-600'}`}>
            <Heart className="w-4 h-4" /> Favourites ({favourites.length})
          </button>
        </div>
      </header>

      <div className="max-w-6xl mx-auto px-6 py-6 grid grid-cols-4 gap-6">
        <aside className="space-y-6">
          <div>
            <h2 className="text-xs font-semibold uppercase tracking-wider text-gray-500 mb-2">Cuisine</h2>
            <div className="flex flex-wrap gap-2">
              {cuisines.map((c) => (
                <button key={c} onClick={() => setCuisine(c)} className={`px-3 py-1 rounded-full text-sm ${cuisine === c ? 'bg-orange-500 text-white' : 'bg-white border border-gray-200'}`}>{c}</button>
              ))}
            </div>
          </div>
          <div>
            <h2 className="text-xs font-semibold uppercase tracking-wider text-gray-500 mb-2">Diet</h2>
            {DIETS.map((d) => (
              <label key={d} className="flex items-center gap-2 text-sm py-0.5 capitalize">
                <input type="checkbox" checked={diets.includes(d)} onChange={() => toggleDiet(d)} className="accent-orange-500" /> {d}
              </label>
            ))}
          </div>
          <div>
            <h2 className="text-xs font-semibold uppercase tracking-wider text-gray-500 mb-2">Ready in {maxMinutes} min or less</h2>
            <input type="range" min={15} max={120} step={5} value={maxMinutes} onChange={(e) => setMaxMinutes(Number(e.target.value))} className="w-full accent-orange-500" />
          </div>
          {shopping.length > 0 && (
            <div className="bg-white rounded-xl border border-emerald-100 p-4">
              <div className="flex items-center justify-between mb-2">
                <h2 className="font-semibold text-sm flex items-center gap-1"><ShoppingBasket className="w-4 h-4 text-emerald-600" /> Shopping list</h2>
                <button onClick={() => setShopping([])} className="text-xs text-gray-400 hover:text-rose-500">Clear</button>
              </div>
              <ul className="text-xs space-y-1">
                {shopping.map((item) => <li key={`${item.name}-${item.unit}`}>{formatQty(item.qty)} {item.unit} {item.name}</li>)}
              </ul>
            </div>
          )}
        </aside>

        <main className="col-span-3">
          <p className="text-sm text-gray-500 mb-4">{results.length} recipe{results.length === 1 ? '' : 's'}</p>
          {results.length === 0 ? (
            <div className="text-center py-20 text-gray-400">No recipes match. Try loosening the filters.</div>
          ) : (
            <div className="grid grid-cols-3 gap-5">
              {results.map((r) => (
                <article key={r.id} onClick={() => setOpenId(r.id)} className="bg-white rounded-2xl overflow-hidden shadow-sm hover:shadow-md cursor-pointer transition">
                  <div className={`h-32 bg-gradient-to-br ${r.color} flex items-center justify-center text-5xl relative`}>
                    {r.emoji}
                    <button onClick={(e) => { e.stopPropagation(); toggleFavourite(r.id); }} className="absolute top-2 right-2 bg-white/80 rounded-full p-1.5" aria-label="Toggle favourite">
                      <Heart className={`w-4 h-4 ${favourites.includes(r.id) ? 'text-rose-500 fill-current' : 'text-gray-500'}`} />
                    </button>
                  </div>
                  <div className="p-4">
                    <h3 className="font-semibold leading-tight">{r.title}</h3>
                    <p className="text-xs text-gray-500 mt-1">{r.cuisine}</p>
                    <div className="flex items-center gap-3 text-xs text-gray-500 mt-3">
                      <span className="flex items-center gap-1"><Clock className="w-3 h-3" />{r.minutes}m</span>
                      <span className="flex items-center gap-1"><Users className="w-3 h-3" />{r.servings}</span>
                      <span className="flex items-center gap-1"><Flame className="w-3 h-3" />{r.calories}</span>
                      {r.diet.includes('vegan') && <span className="flex items-center gap-1 text-emerald-600"><Leaf className="w-3 h-3" />vegan</span>}
                    </div>
                  </div>
                </article>
              ))}
            </div>
          )}
        </main>
      </div>

      {openRecipe && (
        <RecipeModal
          key={openRecipe.id}
          recipe={openRecipe}
          onClose={() => setOpenId(null)}
          isFavourite={favourites.includes(openRecipe.id)}
          onToggleFavourite={toggleFavourite}
          onAddToList={addToList}
        />
      )}
    </div>
  );
}
