import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type * as React from 'react';

const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center rounded-md font-medium text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 [&_svg:not([class*='size-'])]:size-4 [&_svg]:pointer-events-none [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-xs hover:bg-primary/90',
        destructive: 'bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive/90',
        success: 'bg-success text-success-foreground shadow-xs hover:bg-success/90',
        outline: 'border border-input bg-background shadow-xs hover:bg-accent hover:text-accent-foreground',
        secondary: 'bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80',
        ghost: 'hover:bg-accent hover:text-accent-foreground',
        'ghost-destructive': 'text-destructive hover:bg-accent hover:text-destructive',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-10 gap-2 whitespace-nowrap px-4 py-2 has-[>svg]:px-3',
        sm: 'h-8 gap-1.5 whitespace-nowrap px-3 has-[>svg]:px-2.5',
        xs: 'h-7 gap-1.5 whitespace-nowrap px-3 has-[>svg]:px-2.5',
        lg: 'h-11 gap-2 whitespace-nowrap px-6 has-[>svg]:px-4',
        // the small size whose words wrap, for a label that may be long (a person's name)
        'sm-wrap': 'min-h-8 gap-1.5 px-3 py-1.5 text-left has-[>svg]:px-2.5',
        icon: 'size-10 gap-2 whitespace-nowrap',
        'icon-sm': 'size-9 gap-2 whitespace-nowrap',
        'icon-xs': 'size-8 gap-2 whitespace-nowrap',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

function Button({
  className,
  variant,
  size,
  asChild = false,
  type,
  ...props
}: React.ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'button';
  return (
    <Comp
      data-slot="button"
      type={asChild ? type : (type ?? 'button')}
      className={buttonVariants({ variant, size, className })}
      {...props}
    />
  );
}

export { Button, buttonVariants };
