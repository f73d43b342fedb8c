// Recipe Finder: searchable recipe catalogue with diet and time filters, favourites, and a detail view with serving scaler and step checklist
import { useEffect, useMemo, useState } from 'react';
import { FaSearch, FaHeart, FaRegHeart, FaClock, FaLeaf, FaPepperHot, FaUtensils, FaTimes, FaMinus, FaPlus, FaSeedling } from 'react-icons/fa';
import { GiWheat } from 'react-icons/gi';

type Diet = 'vegetarian' | 'vegan' | 'gluten-free' | 'spicy';
type Course = 'breakfast' | 'main' | 'side' | 'dessert';

interface Ingredient {
  name: string;
  qty: number;
  unit: string;
}

interface Recipe {
  id: number;
  title: string;
  course: Course;
  minutes: number;
  servings: number;
  diets: Diet[];
  rating: number;
  color: string;
  ingredients: Ingredient[];
  steps: string[];
}

const RECIPES: Recipe[] = [
  {
    id: 1,
    title: 'Smoky Black Bean Tacos',
    course: 'main',
    minutes: 25,
    servings: 4,
    diets: ['vegetarian', 'vegan', 'spicy'],
    rating: 4.7,
    color: 'from-orange-400 to-red-500',
    ingredients: [
      { name: 'black beans (cooked)', qty: 400, unit: 'g' },
      { name: 'corn tortillas', qty: 8, unit: '' },
      { name: 'chipotle paste', qty: 1, unit: 'tbsp' },
      { name: 'red onion', qty: 1, unit: '' },
      { name: 'lime', qty: 1, unit: '' },
    ],
    steps: ['Warm the beans with chipotle and a splash of water.', 'Quick-pickle sliced onion in lime juice.', 'Char the tortillas in a dry pan.', 'Fill, top with onion and serve.'],
  },
  {
    id: 2,
    title: 'Lemon Ricotta Pancakes',
    course: 'breakfast',
    minutes: 30,
    servings: 2,
    diets: ['vegetarian'],
    rating: 4.5,
    color: 'from-yellow-300 to-amber-400',
    ingredients: [
      { name: 'ricotta', qty: 250, unit: 'g' },
      { name: 'eggs', qty: 2, unit: '' },
      { name: 'flour', qty: 90, unit: 'g' },
      { name: 'lemon zest', qty: 1, unit: 'tsp' },
    ],
    steps: ['Whisk ricotta, eggs and zest.', 'Fold in the flour until just combined.', 'Cook small rounds on a buttered griddle.'],
  },
  {
    id: 3,
    title: 'Thai Green Curry',
    course: 'main',
    minutes: 40,
    servings: 4,
    diets: ['gluten-free', 'spicy'],
    rating: 4.8,
    color: 'from-lime-400 to-green-600',
    ingredients: [
      { name: 'chicken thighs', qty: 600, unit: 'g' },
      { name: 'green curry paste', qty: 3, unit: 'tbsp' },
      { name: 'coconut milk', qty: 400, unit: 'ml' },
      { name: 'Thai basil', qty: 1, unit: 'handful' },
    ],
    steps: ['Fry the paste until fragrant.', 'Add chicken and brown lightly.', 'Pour in coconut milk and simmer 20 minutes.', 'Finish with basil.'],
  },
  {
    id: 4,
    title: 'Crispy Smashed Potatoes',
    course: 'side',
    minutes: 50,
    servings: 4,
    diets: ['vegan', 'vegetarian', 'gluten-free'],
    rating: 4.6,
    color: 'from-amber-300 to-yellow-600',
    ingredients: [
      { name: 'baby potatoes', qty: 800, unit: 'g' },
      { name: 'olive oil', qty: 3, unit: 'tbsp' },
      { name: 'rosemary', qty: 2, unit: 'sprigs' },
    ],
    steps: ['Boil potatoes until tender.', 'Smash flat on a tray and drizzle with oil.', 'Roast at 220°C for 30 minutes.'],
  },
  {
    id: 5,
    title: 'Dark Chocolate Mousse',
    course: 'dessert',
    minutes: 20,
    servings: 6,
    diets: ['vegetarian', 'gluten-free'],
    rating: 4.9,
    color: 'from-stone-600 to-stone-900',
    ingredients: [
      { name: 'dark chocolate', qty: 200, unit: 'g' },
      { name: 'eggs', qty: 4, unit: '' },
      { name: 'sugar', qty: 40, unit: 'g' },
    ],
    steps: ['Melt the chocolate gently.', 'Whisk whites with sugar to soft peaks.', 'Fold yolks into chocolate, then the whites.', 'Chill for at least 2 hours.'],
  },
  {
    id: 6,
    title: 'Miso Glazed Aubergine',
    course: 'main',
    minutes: 35,
    servings: 2,
    diets: ['vegan', 'vegetarian'],
    rating: 4.4,
    color: 'from-purple-400 to-indigo-600',
    ingredients: [
      { name: 'aubergines', qty: 2, unit: '' },
      { name: 'white miso', qty: 2, unit: 'tbsp' },
      { name: 'maple syrup', qty: 1, unit: 'tbsp' },
      { name: 'sesame seeds', qty: 1, unit: 'tsp' },
    ],
    steps: ['Halve and score the aubergines.', 'Roast cut-side down for 20 minutes.', 'Brush with miso glaze and grill until bubbling.'],
  },
];

const DIET_META: Record<Diet, { label: string; icon: typeof FaLeaf }> = {
  vegetarian: { label: 'Vegetarian', icon: FaLeaf },
  vegan: { label: 'Vegan', icon: FaSeedling },
  'gluten-free': { label: 'Gluten-free', icon: GiWheat },
  spicy: { label: 'Spicy', icon: FaPepperHot },
};

function formatQty(q: number): string {
  if (Number.isInteger(q)) return String(q);
  return q.toFixed(q < 10 ? 1 : 0);
}

function RecipeDetail({ recipe, onClose, favourite, onToggleFavourite }: { recipe: Recipe; onClose: () => void; favourite: boolean; onToggleFavourite: () => void }) {
  const [servings, setServings] = useState(recipe.servings);
  const [done, setDone] = useState<Set<number>>(new Set());
  const factor = servings / recipe.servings;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-20 flex items-center justify-center bg-black/50 p-6" onClick={onClose}>
      <div onClick={(e) => e.stopPropagation()} className="max-h-[90vh] w-full max-w-2xl overflow-y-auto rounded-3xl bg-white shadow-2xl">
        <div className={`relative h-40 bg-gradient-to-br ${recipe.color}`}>
          <button onClick={onClose} className="absolute right-4 top-4 rounded-full bg-white/80 p-2" aria-label="Close">
            <FaTimes />
          </button>
          <h2 className="absolute bottom-4 left-6 text-3xl font-bold text-white drop-shadow">{recipe.title}</h2>
        </div>
        <div className="grid grid-cols-5 gap-6 p-6">
          <div className="col-span-2">
            <div className="mb-3 flex items-center justify-between">
              <h3 className="font-semibold">Ingredients</h3>
              <div className="flex items-center gap-2 text-sm">
                <button onClick={() => setServings((s) => Math.max(1, s - 1))} className="rounded-full border p-1" aria-label="Fewer servings">
                  <FaMinus size={10} />
                </button>
                <span>{servings} servings</span>
                <button onClick={() => setServings((s) => Math.min(24, s + 1))} className="rounded-full border p-1" aria-label="More servings">
                  <FaPlus size={10} />
                </button>
              </div>
            </div>
            <ul className="space-y-1.5 text-sm">
              {recipe.ingredients.map((ing) => (
                <li key={ing.name} className="flex justify-between border-b border-dashed border-gray-200 pb-1">
                  <span>{ing.name}</span>
                  <span className="font-medium">
                    {formatQty(ing.qty * factor)} {ing.unit}
                  </span>
                </li>
              ))}
            </ul>
            <button onClick={onToggleFavourite} className="mt-4 flex items-center gap-2 text-sm text-rose-600">
              {favourite ? <FaHeart /> : <FaRegHeart />} {favourite ? 'Saved to favourites' : 'Save to favourites'}
            </button>
          </div>
          <div className="col-span-3">
            <h3 className="mb-3 font-semibold">
              Method ({done.size}/{recipe.steps.length})
            </h3>
            <ol className="space-y-2">
              {recipe.steps.map((step, i) => (
                <li key={step}>
                  <label className={`flex cursor-pointer gap-3 rounded-xl p-3 text-sm ${done.has(i) ? 'bg-green-50 text-gray-400 line-through' : 'bg-gray-50'}`}>
                    <input
                      type="checkbox"
                      checked={done.has(i)}
                      onChange={() =>
                        setDone((d) => {
                          const n = new Set(d);
                          if (n.has(i)) n.delete(i);
                          else n.add(i);
                          return n;
                        })
                      }
                    />
                    <span>
                      <span className="mr-1 font-semibold">{i + 1}.</span>
                      {step}
                    </span>
                  </label>
                </li>
              ))}
            </ol>
          </div>
        </div>
      </div>
    </div>
  );
}

export default function App() {
  const [query, setQuery] = useState('');
  const [diets, setDiets] = useState<Set<Diet>>(new Set());
  const [course, setCourse] = useState<Course | 'any'>('any');
  const [maxMinutes, setMaxMinutes] = useState(60);
  const [favourites, setFavourites] = useState<Set<number>>(new Set([3]));
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);

  const results = useMemo(() => {
    const q = query.trim().toLowerCase();
    return RECIPES.filter(
      (r) =>
        (!q || r.title.toLowerCase().includes(q) || r.ingredients.some((i) => i.name.toLowerCase().includes(q))) &&
        [...diets].every((d) => r.diets.includes(d)) &&
        (course === 'any' || r.course === course) &&
        r.minutes <= maxMinutes &&
        (!onlyFavourites || favourites.has(r.id)),
    ).sort((a, b) => b.rating - a.rating);
  }, [query, diets, course, maxMinutes, onlyFavourites, favourites]);

  const toggleDiet = (d: Diet) =>
    setDiets((s) => {
      const n = new Set(s);
      if (n.has(d)) n.delete(d);
      else n.add(d);
      return n;
    });

  const toggleFavourite = (id: number) =>
    setFavourites((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const open = RECIPES.find((r) => r.id === openId);

  return (
    <div className="min-h-screen bg-orange-50 p-8">
      <div className="mx-auto max-w-6xl">
        <header className="mb-6">
          <h1 className="flex items-center gap-3 text-3xl font-extrabold text-stone-800">
            <FaUtensils className="text-orange-500" /> What should I cook?
          </h1>
        </header>
        <div className="mb-6 space-y-4 rounded-2xl bg-white p-5 shadow-sm">
          <label className="flex items-center gap-3 rounded-xl border border-stone-200 px-4 py-3">
            <FaSearch className="text-stone-400" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search by dish or ingredient, e.g. coconut" className="w-full outline-none" />
          </label>
          <div className="flex flex-wrap items-center gap-3">
            {(Object.keys(DIET_META) as Diet[]).map((d) => {
              const Icon = DIET_META[d].icon;
              return (
                <button
                  key={d}
                  onClick={() => toggleDiet(d)}
                  className={`flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm ${diets.has(d) ? 'bg-orange-500 text-white' : 'bg-stone-100 text-stone-600 hover:bg-stone-200'}`}
                >
                  <Icon /> {DIET_META[d].label}
                </button>
              );
            })}
            <select value={course} onChange={(e) => setCourse(e.target.value as Course | 'any')} className="rounded-full border border-stone-200 px-3 py-1.5 text-sm capitalize">
              <option value="any">Any course</option>
              {(['breakfast', 'main', 'side', 'dessert'] as Course[]).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <label className="flex items-center gap-2 text-sm text-stone-600">
              <FaClock /> up to {maxMinutes} min
              <input type="range" min={10} max={60} step={5} value={maxMinutes} onChange={(e) => setMaxMinutes(Number(e.target.value))} />
            </label>
            <label className="ml-auto flex items-center gap-2 text-sm">
              <input type="checkbox" checked={onlyFavourites} onChange={(e) => setOnlyFavourites(e.target.checked)} /> Favourites only
            </label>
          </div>
        </div>

        <p className="mb-3 text-sm text-stone-500">{results.length} recipes</p>
        <div className="grid grid-cols-3 gap-6">
          {results.map((r) => (
            <article key={r.id} className="overflow-hidden rounded-2xl bg-white shadow-sm transition hover:-translate-y-1 hover:shadow-md">
              <button onClick={() => setOpenId(r.id)} className={`block h-32 w-full bg-gradient-to-br ${r.color}`} aria-label={`Open ${r.title}`} />
              <div className="p-4">
                <div className="flex items-start justify-between gap-2">
                  <button onClick={() => setOpenId(r.id)} className="text-left font-semibold text-stone-800 hover:underline">
                    {r.title}
                  </button>
                  <button onClick={() => toggleFavourite(r.id)} className="text-rose-500" aria-label="Toggle favourite">
                    {favourites.has(r.id) ? <FaHeart /> : <FaRegHeart />}
                  </button>
                </div>
                <div className="mt-2 flex items-center gap-3 text-xs text-stone-500">
                  <span className="flex items-center gap-1">
                    <FaClock /> {r.minutes} min
                  </span>
                  <span className="capitalize">{r.course}</span>
                  <span>★ {r.rating}</span>
                </div>
                <div className="mt-3 flex gap-1">
                  {r.diets.map((d) => {
                    const Icon = DIET_META[d].icon;
                    return (
                      <span key={d} title={DIET_META[d].label} className="rounded-full bg-orange-50 p-1.5 text-orange-600">
                        <Icon size={12} />
                      </span>
                    );
                  })}
                </div>
              </div>
            </article>
          ))}
        </div>
        {results.length === 0 && <p className="py-16 text-center text-stone-400">No recipes match. Try removing a filter.</p>}
      </div>
      {open && <RecipeDetail key={open.id} recipe={open} onClose={() => setOpenId(null)} favourite={favourites.has(open.id)} onToggleFavourite={() => toggleFavourite(open.id)} />}
    </div>
  );
}
